/*
 * userdir.h - the places raidbench keeps its own files (XDG base
 * directories: the scratch file, saved results, user profiles, the sweep
 * journal) and the only way it creates anything in them.
 *
 * Safety contract: a place is never world-writable by fallback (no /tmp);
 * every directory on the way is opened one component at a time without
 * following a symbolic link that someone else owns, and must belong to the
 * caller or root and be writable by no one else (a sticky directory such as
 * /tmp may be passed through, never used). Files are created with O_EXCL
 * and opened with O_NOFOLLOW, and must be regular files of the caller's.
 * Nothing prints; each failure is -errno plus one line naming the path.
 */
#ifndef RB_USERDIR_H
#define RB_USERDIR_H

#include <stddef.h>
#include <sys/types.h>

enum userdir_kind {
	USERDIR_CACHE,		/* $XDG_CACHE_HOME, ~/.cache */
	USERDIR_DATA,		/* $XDG_DATA_HOME, ~/.local/share */
	USERDIR_CONFIG,		/* $XDG_CONFIG_HOME, ~/.config */
	USERDIR_STATE,		/* $XDG_STATE_HOME, ~/.local/state */
};

/*
 * Pure: raidbench's directory of the kind from the variable's value (xdg),
 * $HOME (home) and the password database's home (pw_home), each NULL when
 * unset. Relative values are ignored, as the XDG spec says. buf receives
 * e.g. "/root/.cache/raidbench"; -ENOENT when none of the three is usable,
 * -ENAMETOOLONG when buf is too small.
 */
int userdir_choose(enum userdir_kind kind, const char *xdg, const char *home,
		   const char *pw_home, char *buf, size_t len);

/*
 * userdir_choose() from the environment and getpwuid(geteuid()), with sub
 * ("results", "scratch.dat", NULL for none) appended. 0 or -errno with err
 * set (it names the variables to set).
 */
int userdir_path(enum userdir_kind kind, const char *sub, char *buf, size_t len, char *err,
		 size_t errlen);

/* mkdir -p of dir (absolute) under the contract above. 0 or -errno with err set. */
int userdir_make(const char *dir, char *err, size_t errlen);

/*
 * Opens path, making its directory as userdir_make() does. With O_CREAT a
 * missing file is created (O_EXCL); an existing one is opened with
 * O_NOFOLLOW and must be a regular file of the caller's with one link;
 * O_TRUNC is applied only after that check. Returns the fd (close-on-exec)
 * or -errno with err set.
 */
int userdir_open(const char *path, int flags, mode_t mode, char *err, size_t errlen);

#endif
