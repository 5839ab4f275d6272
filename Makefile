# SPDX-License-Identifier: GPL-2.0
#
#   make                build kmod/sch_ddl.ko against KDIR
#   make tc             build tc-plugin/q_ddl.so (one for iproute2 6.1 up to
#                       TC_TESTED in tc-plugin/Makefile; IPROUTE2_SRC=<sources>
#                       for another release)
#   make install        install the module (and run depmod) and the tc plugin
#   make deb            the Debian packages sch-ddl-dkms, -tc and -exporter, in
#                       build/deb/ (dpkg-buildpackage -us -uc -b), versioned
#                       from git (scripts/version)
#   make check          everything a submission must pass (CONTRIBUTING.md)
#   make check-compat   the compat test kernel (Debian's 6.1): build it once,
#                       run its KUnit and e2e stage (make check runs that
#                       stage too once the kernel is cached)
#   make check-kernels  the kernel matrix (scripts/check-kernels; not in
#                       check): a W=1 build against Linux 6.1, 6.8, 6.12,
#                       6.14, 6.17, 6.18 and the newest release to be had,
#                       and KUnit + e2e smoke set booted on 6.1, 6.12, 6.18
#   make check-release  the packages as Debian 12 and 13 hosts get them: in a
#                       chroot of each release, build, lintian, apt install
#                       the previous build (DDL_PREV=REF, default the last
#                       tag or HEAD~1), boot the release's own kernel,
#                       upgrade to this build with a configuration running,
#                       purge (scripts/release-test; not in check: minutes
#                       of downloads per release when cold)
#   make check-debug    every e2e script on the debug kernel, the timing
#                       ones too (make check runs those on the fast kernel)
#   make check-launchers
#                       the launchers for real, in the test VM (fast
#                       kernel): jobs in podman containers bound by the CNI
#                       plugin alone, and PyTorch jobs through torchrun and
#                       sch-ddl-job run on three hosts (the scripts marked
#                       "# e2e: launchers"; not in check: minutes each)
#   make check-tc       the tc plugin with the installed tc and the newest
#                       release's (scripts/iproute2-tc): headers, tdc, e2e
#   make check-quick    the inner loop: builds, static checks, KUnit and the
#                       functional e2e tests on the fast kernel (its time:
#                       CONTRIBUTING.md)
#   make vm CMD=...     run CMD in the test VM (scripts/vm-run)
#   make fuzz SECS=N SEED=S
#                       the netlink fuzzer (tests/fuzz/nlfuzz.py) on the
#                       debug kernel for N s (600), rounds of 1000 requests
#                       from seed S (random); prints every finding's seed
#   make stress SECS=N  stress with churn (tests/e2e/stress.sh) on the debug
#                       kernel for N s (600)
#   make bench-pace     shaping accuracy with pktgen (bench/bench-pace)
#   make bench-datapath each qdisc's cost per packet timed in the kernel
#                       (bench/bench-datapath --inkernel: the figure that
#                       holds from boot to boot, ~1.5 min), then packet rate
#                       with pktgen and memory against other qdiscs
#                       (bench/bench-datapath, noisy)
#   make bench-linerate the per-packet cost (bench-datapath --inkernel,
#                       bench-insns under TCG) and bench-bulk in the test
#                       VM, under KVM where /dev/kvm is usable, with
#                       nproc vCPUs; a summary in build/linerate/
#                       (bench/bench-linerate; ARGS="--kernel BZIMAGE
#                       --modules DIR" boots another kernel on a plain
#                       initramfs instead)
#   make tools          build/tools/ddlemu, the job emulator (bench/ddlemu.c)
#   make demo           the compatible and saturated scenarios under every
#                       policy, ddl with its defaults: tables and plots
#                       (bench/ddl-bench)
#   make bench          every ddl-bench preset (torch too), 3 repetitions
#                       (the PyTorch cluster and launcher presets once),
#                       20 random mixes
#                       and 4 with PyTorch jobs (from seed 1, or SEED=S),
#                       and both datapath benchmarks (not in check)

KDIR ?= /lib/modules/$(shell uname -r)/build
DESTDIR ?=
# tc loads q_ddl.so from its LIBDIR/tc.  Debian and Ubuntu build iproute2
# with LIBDIR=/usr/lib/<multiarch triplet>; upstream's default is /usr/lib.
# Elsewhere (e.g. /usr/lib64/tc) pass TC_LIB_DIR.
MULTIARCH := $(shell dpkg-architecture -qDEB_HOST_MULTIARCH 2>/dev/null || \
	$(CC) -print-multiarch 2>/dev/null)
TC_LIB_DIR ?= $(if $(MULTIARCH),/usr/lib/$(MULTIARCH)/tc,/usr/lib/tc)

all: modules

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

modules_install: modules
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

tc:
	$(MAKE) -C tc-plugin

install: modules_install install-tc

install-tc: tc
	install -D -m 0644 tc-plugin/q_ddl.so $(DESTDIR)$(TC_LIB_DIR)/q_ddl.so
	install -D -m 0644 Documentation/tc-ddl.8 \
		$(DESTDIR)/usr/share/man/man8/tc-ddl.8

tc-lib-dir:
	@echo $(TC_LIB_DIR)

deb:
	scripts/make-deb build/deb

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean 2>/dev/null || true
	$(MAKE) -C tc-plugin clean
	rm -rf build

check:
	scripts/check

check-quick:
	scripts/check --quick

check-compat:
	scripts/check --compat

check-release:
	scripts/release-test

check-kernels:
	scripts/check-kernels

check-debug:
	scripts/check --debug-e2e

check-tc:
	scripts/check --tc

check-launchers:
	scripts/install-deps torch
	@fail=0; for t in $$(grep -l '^# e2e: launchers$$' tests/e2e/*.sh); do \
		echo "# $$t"; \
		scripts/vm-run -k fast -m 3072 -t 1500 bash "$$t" || fail=1; \
	done; \
	[ $$fail = 0 ] && echo "check-launchers: all passed" || \
		{ echo "check-launchers: FAILED"; exit 1; }

tools: build/tools/ddlemu

build/tools/ddlemu: bench/ddlemu.c
	@mkdir -p $(@D)
	$(CC) -O2 -g -Wall -Wextra -Werror -o $@ $<

vm:
	scripts/vm-run $(CMD)

SECS ?= 600
# Drawn once: a recursive variable would draw anew at every use.
# make bench draws its mixes from seed 1 unless SEED is given.
BENCH_SEED := $(if $(filter command line environment,$(origin SEED)),$(SEED),1)
SEED ?= $(shell od -An -N2 -tu2 /dev/urandom | tr -d ' ')
SEED := $(SEED)

fuzz:
	scripts/install-deps
	@echo "fuzz: seed $(SEED), $(SECS) s"
	scripts/vm-run -k debug -t $$(( $(SECS) + 900 )) -o $(CURDIR)/build/fuzz \
		python3 -S tests/fuzz/nlfuzz.py --seed $(SEED) --count 1000 \
		--secs $(SECS)

stress:
	scripts/install-deps
	scripts/vm-run -k debug -t $$(( $(SECS) + 1200 )) -o $(CURDIR)/build/stress \
		env DDL_STRESS_SECS=$(SECS) scripts/guest-e2e -t $$(( $(SECS) + 900 )) \
		tests/e2e/stress.sh; rc=$$?; cat build/stress/e2e/stress.log; exit $$rc

bench-pace:
	bench/bench-pace

bench-datapath:
	bench/bench-datapath --inkernel
	bench/bench-datapath

bench-bulk:
	@mkdir -p build/bench
	bench/bench-bulk --json build/bench/bulk.json
	python3 tests/bulk_check.py build/bench/bulk.json

bench-linerate:
	bench/bench-linerate $(ARGS)

demo:
	scripts/install-deps
	bench/ddl-bench -o build/demo compatible saturated

bench:
	scripts/install-deps
	bench/ddl-bench --reps 3 -o build/bench all torch
	bench/ddl-bench --reps 3 -o build/bench-cluster sharded sharded-imb \
		sharded-sat sharded3 ring incast fabric
	bench/ddl-bench -o build/bench-cluster-torch sharded-torch ring-torch \
		incast-torch fabric-torch
	bench/ddl-bench --reps 3 -o build/bench-launchers pods containers
	bench/ddl-bench --reps 3 -o build/bench-mq saturated ring \
		policies="drr ddl ddl-mq"
	bench/ddl-bench -o build/bench-launchers-torch torchrun
	bench/ddl-bench -o build/bench-mix mix seed=$(BENCH_SEED)
	bench/ddl-bench -o build/bench-mix-torch mix runner=torch mixes=4 \
		seed=$(BENCH_SEED)
	bench/ddl-bench -o build/bench-mix-torch-loaded mix-1 mix-2 \
		runner=torch load=2 seed=$(BENCH_SEED)
	bench/bench-datapath --inkernel --json build/bench/qdisc-cost.json
	python3 tests/qdisc_cost_check.py build/bench/qdisc-cost.json
	bench/bench-datapath --json build/bench/datapath.json
	python3 tests/datapath_check.py build/bench/datapath.json
	bench/bench-bulk --json build/bench/bulk.json
	python3 tests/bulk_check.py build/bench/bulk.json

.PHONY: all modules modules_install tc install install-tc tc-lib-dir deb clean check check-quick check-compat check-kernels check-release check-debug check-tc check-launchers vm fuzz stress bench-pace \
	bench-datapath bench-bulk bench-linerate tools demo bench
