/*
 * cmocka-skip.c - a cmocka program for tests/cli/cmocka-skip.sh, which
 * runs it under automake's tap-driver.sh the way `make check` runs the
 * test_* programs, to see how a skip() is counted.
 *
 *   cmocka-skip some    one test skips, one passes
 *   cmocka-skip all     every test skips
 *   cmocka-skip fail    one test skips, one fails
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

static const char *mode = "some";

static void always_skips(void **state)
{
	skip();
}

static void skips_in_mode_all(void **state)
{
	if (strcmp(mode, "all") == 0)
		skip();
	assert_int_equal(strcmp(mode, "fail") == 0, 0);
}

int main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(always_skips),
		cmocka_unit_test(skips_in_mode_all),
	};

	if (argc > 1)
		mode = argv[1];
	if (strcmp(mode, "some") && strcmp(mode, "all") && strcmp(mode, "fail")) {
		fprintf(stderr, "usage: cmocka-skip some|all|fail\n");
		return 2;
	}
	return cmocka_run_group_tests_name("cmocka-skip", tests, NULL, NULL);
}
