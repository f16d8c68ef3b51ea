/* SPDX-License-Identifier: ISC */
/* log.c: one logger for every program, to stderr or syslog */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "log.h"

static const char	*log_name = "hearth";
static enum log_dest	 log_to = LOG_DEST_STDERR;
static int		 log_verbose;

/*
 * Choose the destination once, at start-up.  verbose > 0 lets
 * log_debug() through.
 */
void
log_init(const char *name, enum log_dest dest, int verbose)
{
	log_name = name;
	log_to = dest;
	log_verbose = verbose;
	if (dest == LOG_DEST_SYSLOG)
		openlog(name, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

static void
vlog(int pri, const char *errstr, const char *fmt, va_list ap)
{
	char	 msg[1024];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_to == LOG_DEST_SYSLOG) {
		if (errstr != NULL)
			syslog(pri, "%s: %s", msg, errstr);
		else
			syslog(pri, "%s", msg);
		return;
	}
	if (errstr != NULL)
		fprintf(stderr, "%s: %s: %s\n", log_name, msg, errstr);
	else
		fprintf(stderr, "%s: %s\n", log_name, msg);
}

/* Log a warning with strerror(errno) appended. */
void
log_warn(const char *fmt, ...)
{
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	vlog(LOG_WARNING, strerror(saved), fmt, ap);
	va_end(ap);
	errno = saved;
}

void
log_warnx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_WARNING, NULL, fmt, ap);
	va_end(ap);
}

void
log_info(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_INFO, NULL, fmt, ap);
	va_end(ap);
}

void
log_debug(const char *fmt, ...)
{
	va_list	 ap;

	if (log_verbose < 1)
		return;
	va_start(ap, fmt);
	vlog(LOG_DEBUG, NULL, fmt, ap);
	va_end(ap);
}

/* Only before a program's main loop: log with errno and exit 1. */
void
fatal(const char *fmt, ...)
{
	va_list	 ap;
	int	 saved = errno;

	va_start(ap, fmt);
	vlog(LOG_CRIT, saved ? strerror(saved) : NULL, fmt, ap);
	va_end(ap);
	exit(1);
}

void
fatalx(const char *fmt, ...)
{
	va_list	 ap;

	va_start(ap, fmt);
	vlog(LOG_CRIT, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}
