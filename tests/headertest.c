/* The public header must stand alone under -std=c11 -pedantic. */
#include <ibtopo.h>

#include <stdio.h>

int main(void)
{
	struct ibtopo_error err = IBTOPO_ERROR_INIT;
	struct ibtopo_fabric *f = NULL;
	int rc = ibtopo_fabric_new(&f, &err);

	ibtopo_fabric_free(f);
	printf("1..1\n%s 1 - ibtopo.h compiles alone as C11\n", rc ? "not ok" : "ok");
	return 0;
}
