// SPDX-License-Identifier: GPL-2.0
/*
 * A deliberately broken module for the harness self-test: loaded with
 * bug=warn, bug=uaf or bug=leak it makes the kernel report a WARN, a KASAN
 * use-after-free or a kmemleak leak, so that `make check` can prove that
 * scripts/vm-run fails on each of them.  Never installed.
 */

#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>

static char *bug = "none";
module_param(bug, charp, 0444);
MODULE_PARM_DESC(bug, "none, warn, uaf or leak");

static void *ddl_splat_ptr;

static int __init ddl_splat_init(void)
{
	if (!strcmp(bug, "warn")) {
		WARN(1, "ddl_splat: harness self-test warning\n");
	} else if (!strcmp(bug, "uaf")) {
		char *p = kmalloc(32, GFP_KERNEL);

		if (!p)
			return -ENOMEM;
		kfree(p);
		WRITE_ONCE(p[8], 1);
	} else if (!strcmp(bug, "leak")) {
		int i;

		/*
		 * Lose the only references to 16 objects.  Zeroed: a kmalloc()
		 * object still holds SLUB's free pointer to its neighbour,
		 * which kmemleak counts as a reference.  A stale copy of the
		 * last pointer may survive in a cached stack; the others have
		 * none.
		 */
		for (i = 0; i < 16; i++)
			WRITE_ONCE(ddl_splat_ptr, kzalloc(64, GFP_KERNEL));
		WRITE_ONCE(ddl_splat_ptr, NULL);
	}
	return 0;
}

static void __exit ddl_splat_exit(void)
{
}

module_init(ddl_splat_init);
module_exit(ddl_splat_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Harness self-test: deliberate kernel bug reports");
