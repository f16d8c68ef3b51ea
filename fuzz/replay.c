/* SPDX-License-Identifier: ISC */
/* replay.c: run a fuzz target over its corpus without libFuzzer */
#include <sys/stat.h>

#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static int
replay(const char *path)
{
	FILE	*f;
	char	*p = NULL;
	long	 n;
	int	 rc = -1;

	if ((f = fopen(path, "rb")) == NULL)
		return -1;
	if (fseek(f, 0, SEEK_END) == -1 || (n = ftell(f)) < 0 ||
	    fseek(f, 0, SEEK_SET) == -1)
		goto out;
	if ((p = malloc((size_t)n + 1)) == NULL)
		goto out;
	if (n > 0 && fread(p, 1, (size_t)n, f) != (size_t)n)
		goto out;
	LLVMFuzzerTestOneInput((const uint8_t *)p, (size_t)n);
	rc = 0;
out:
	free(p);
	fclose(f);
	return rc;
}

/*
 * Each argument is a file or a folder of files; every input is fed to
 * the target once.  A crash is the sanitizers' to report.
 */
int
main(int argc, char *argv[])
{
	struct dirent	*de;
	struct stat	 st;
	DIR		*d;
	char		 path[4096];
	int		 i, n = 0, bad = 0;

	for (i = 1; i < argc; i++) {
		if (stat(argv[i], &st) == -1) {
			printf("not ok - %s: no such corpus\n", argv[i]);
			bad++;
			continue;
		}
		if (!S_ISDIR(st.st_mode)) {
			bad += replay(argv[i]) == -1;
			n++;
			continue;
		}
		if ((d = opendir(argv[i])) == NULL) {
			bad++;
			continue;
		}
		while ((de = readdir(d)) != NULL) {
			if (de->d_name[0] == '.')
				continue;
			if ((size_t)snprintf(path, sizeof(path), "%s/%s",
			    argv[i], de->d_name) >= sizeof(path))
				continue;
			if (replay(path) == -1) {
				printf("not ok - cannot read %s\n", path);
				bad++;
			}
			n++;
		}
		closedir(d);
	}
	if (bad == 0)
		printf("ok - replayed %d inputs without a finding\n", n);
	return bad != 0;
}
