/* tui/cli.h: placeholder */
