/* SPDX-License-Identifier: ISC */
/* log.h: one logger for every program, to stderr or syslog */
#ifndef HEARTH_LOG_H
#define HEARTH_LOG_H

enum log_dest {
	LOG_DEST_STDERR,
	LOG_DEST_SYSLOG,
};

void	log_init(const char *, enum log_dest, int);
void	log_warn(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_warnx(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_info(const char *, ...) __attribute__((format(printf, 1, 2)));
void	log_debug(const char *, ...) __attribute__((format(printf, 1, 2)));
void	fatal(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#endif
