/* tui/cmd_run.c: placeholder, being written */
