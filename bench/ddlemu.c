// SPDX-License-Identifier: GPL-2.0
/*
 * ddlemu - emulate the traffic of parameter-server training jobs over real
 * TCP sockets, and the load generators the tests need.
 *
 *   ddlemu ps -p PORT -w WORKERS -n ITERS -u BYTES [-j NAME] [-E EPOCH_NS]
 *             [-d DELAY_MS] [-T TOS] [-t TIMEOUT_S]
 *	One job's parameter server.  It accepts WORKERS connections, waits
 *	until EPOCH_NS (CLOCK_MONOTONIC; default: now + 1 s) plus DELAY_MS,
 *	then runs ITERS synchronous iterations: send an update of BYTES to
 *	every worker at once (the burst), then wait for every worker's
 *	gradient.  Prints one JSON object: per iteration its start, when the
 *	last worker had the whole update (the burst's completion) and when
 *	the last gradient arrived (the iteration's end), all in ns.
 *   ddlemu worker -a ADDR[,ADDR...] -p PORT -g BYTES[,BYTES...]
 *             [-c COMPUTE_US] [-j NAME] [-b BUCKET_MS] [-T TOS] [-t TIMEOUT_S]
 *	One worker: receive each update, "compute" for COMPUTE_US, push a
 *	gradient of BYTES.  With several addresses the job's PS is sharded
 *	over those hosts (up to 8, each on PORT): the worker computes once
 *	it holds every shard's update and pushes each shard its gradient
 *	(the list gives each its size, or one size for all).  Prints JSON:
 *	the update bytes received in every BUCKET_MS (default 10) of
 *	CLOCK_MONOTONIC, for throughput plots.
 *   ddlemu ring -a NEXT -p PORT -w MEMBERS -n ITERS -u BYTES [-c COMPUTE_US]
 *             [-j NAME] [-E EPOCH_NS] [-d DELAY_MS] [-T TOS] [-t TIMEOUT_S]
 *	One member of a ring all-reduce job: listens on PORT for the member
 *	before it, connects to the next one at NEXT:PORT; from EPOCH_NS on,
 *	ITERS iterations of an all-reduce of BYTES (2(MEMBERS-1) steps of
 *	BYTES/MEMBERS each way) and COMPUTE_US of compute.  Prints the PS's
 *	JSON, the all-reduce's end as the burst.
 *   ddlemu bulk -a ADDR -p PORT -s SECS [-f FLOWS] [-T TOS]
 *	FLOWS TCP connections sending as fast as they can for SECS seconds.
 *   ddlemu sink -p PORT -s SECS
 *	Accept any number of connections and discard what they send.
 *   ddlemu burst -a ADDR -p PORT -s SECS -n COUNT -l SIZE -P PERIOD_MS
 *             [-S SPORT] [-T TOS] [-m MARK] [-o PRIORITY] [-E EPOCH_NS]
 *	COUNT UDP datagrams of SIZE bytes at the start of every PERIOD_MS
 *	from EPOCH_NS (CLOCK_MONOTONIC; default: now) for SECS from then,
 *	all in one sendmmsg() so that a slow machine cannot split a burst;
 *	SECS 0 sends one burst (the tests' udp-burst, without python's start
 *	of a second on the debug kernel).  MARK sets SO_MARK, PRIORITY
 *	SO_PRIORITY.  The call blocks while the socket buffer is
 *	full, so a COUNT and PERIOD above the shaped rate make a flood that
 *	keeps the qdisc backlogged without spinning; a datagram the qdisc
 *	refuses (ENOBUFS) is counted as dropped and the burst goes on.
 *
 *   ddlemu now [-d DELAY_MS]
 *	Print CLOCK_MONOTONIC in ns, plus DELAY_MS: an EPOCH_NS for the
 *	roles above, without python's start.
 *
 * Every role takes -N NETNS: it runs in network namespace NETNS (a name
 * under /run/netns, as ip netns makes them), as "ip netns exec" or nsenter
 * would run it, without their process.
 *
 * Every loop is bounded by a deadline (-t, default 600 s) so that a lost
 * peer ends the run with an error instead of a hang.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define MAGIC_UPDATE	0x44444c55u	/* "DDLU" */
#define MAGIC_GRAD	0x44444c47u	/* "DDLG" */
#define MAX_WORKERS	256
#define MAX_BURST	1024
#define MAX_SHARDS	8
#define CHUNK		(64 * 1024)

struct msg_hdr {
	uint32_t magic;
	uint32_t iter;
	uint64_t len;		/* payload bytes after the header */
	uint64_t t_done;	/* gradient: when the update was complete */
};

struct opts {
	const char *addr, *job, *grads;
	int port, workers, iters, flows, count, size, sport, tos, mark, prio;
	uint64_t update, compute_us, epoch_ns, delay_ms, period_ms;
	uint64_t bucket_ms;
	double secs, timeout;
};

static char zeros[CHUNK];
static char sink_buf[CHUNK];
static uint64_t deadline;

static void die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fprintf(stderr, "ddlemu: ");
	vfprintf(stderr, fmt, ap);
	if (errno)
		fprintf(stderr, ": %s", strerror(errno));
	fprintf(stderr, "\n");
	va_end(ap);
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void sleep_until(uint64_t t)
{
	struct timespec ts = {
		.tv_sec = t / 1000000000ull,
		.tv_nsec = t % 1000000000ull,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static void check_deadline(const char *what)
{
	if (now_ns() > deadline) {
		errno = 0;
		die("%s: timed out", what);
	}
}

/* Poll timeout in ms up to the deadline, at least 1. */
static int poll_ms(void)
{
	uint64_t t = now_ns();

	return t >= deadline ? 1 : (int)((deadline - t) / 1000000 + 1);
}

static void set_tos(int fd, int tos)
{
	if (tos >= 0 && setsockopt(fd, IPPROTO_IP, IP_TOS, &tos, sizeof(tos)))
		die("IP_TOS");
}

static struct sockaddr_in make_addr(const char *addr, int port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };

	sa.sin_port = htons(port);
	if (!addr)
		sa.sin_addr.s_addr = htonl(INADDR_ANY);
	else if (inet_pton(AF_INET, addr, &sa.sin_addr) != 1)
		die("bad address %s", addr);
	return sa;
}

static int tcp_listen(int port)
{
	struct sockaddr_in sa = make_addr(NULL, port);
	int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

	if (fd < 0)
		die("socket");
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(fd, 1024))
		die("listen on %d", port);
	return fd;
}

/* Connect, retrying while the server is not up yet. */
static int tcp_connect(const char *addr, int port, int tos)
{
	struct sockaddr_in sa = make_addr(addr, port);

	for (;;) {
		int one = 1, fd = socket(AF_INET, SOCK_STREAM, 0);

		if (fd < 0)
			die("socket");
		set_tos(fd, tos);
		/* A gradient's header must not wait for a delayed ACK. */
		setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		if (!connect(fd, (struct sockaddr *)&sa, sizeof(sa)))
			return fd;
		if (errno != ECONNREFUSED && errno != ENETUNREACH)
			die("connect to %s:%d", addr, port);
		close(fd);
		check_deadline("connect");
		usleep(20000);
	}
}

static void set_nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

/* Blocking helper for the worker side. */
static void write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = write(fd, p, len);

		if (n <= 0)
			die("write");
		p += n;
		len -= n;
	}
}

/* Messages ------------------------------------------------------------- */

struct buckets {
	uint64_t width, first;
	size_t n, cap;
	uint64_t *bytes;
};

static void bucket_add(struct buckets *b, uint64_t t, uint64_t bytes)
{
	uint64_t i = t / b->width;

	if (!b->n) {
		b->first = i;
		b->n = 1;
	}
	if (i < b->first)
		i = b->first;
	i -= b->first;
	if (i >= b->cap) {
		size_t cap = b->cap ? b->cap : 1024;

		while (cap <= i)
			cap *= 2;
		b->bytes = realloc(b->bytes, cap * sizeof(*b->bytes));
		if (!b->bytes)
			die("realloc");
		memset(b->bytes + b->cap, 0, (cap - b->cap) * sizeof(*b->bytes));
		b->cap = cap;
	}
	if (i >= b->n)
		b->n = i + 1;
	b->bytes[i] += bytes;
}

/* A message being read: its header, then its payload. */
struct msg_in {
	struct msg_hdr h;
	size_t hdr_in;		/* header bytes read */
	uint64_t left;		/* payload bytes still to read */
};

/*
 * Read a message of MAGIC from a nonblocking socket, counting its payload
 * in B if given.  Returns 1 when it is whole (the next call begins a new
 * one), 0 when more is to come, -1 when the peer closed before a message.
 */
static int msg_read(int fd, struct msg_in *m, uint32_t magic,
		    struct buckets *b)
{
	ssize_t n;

	while (m->hdr_in < sizeof(m->h)) {
		n = read(fd, (char *)&m->h + m->hdr_in, sizeof(m->h) - m->hdr_in);
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n == 0 && !m->hdr_in)
			return -1;
		if (n <= 0)
			die("read");
		m->hdr_in += n;
		if (m->hdr_in == sizeof(m->h)) {
			if (m->h.magic != magic) {
				errno = 0;
				die("bad message header");
			}
			m->left = m->h.len;
		}
	}
	while (m->left) {
		n = read(fd, sink_buf, m->left < CHUNK ? m->left : CHUNK);
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n <= 0)
			die("read");
		m->left -= n;
		if (b)
			bucket_add(b, now_ns(), n);
	}
	m->hdr_in = 0;
	return 1;
}

/* The parameter server ------------------------------------------------- */

struct conn {
	int fd;
	uint64_t out_left;	/* update bytes still to write (header first) */
	size_t hdr_out;		/* header bytes written */
	struct msg_in in;	/* the gradient being read */
	int done;		/* gradient of this iteration received */
};

struct iter_rec {
	uint64_t start, burst, end;
};

static void ps_write(struct conn *c, const struct msg_hdr *h)
{
	ssize_t n;

	if (c->hdr_out < sizeof(*h)) {
		n = write(c->fd, (const char *)h + c->hdr_out,
			  sizeof(*h) - c->hdr_out);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0)
			die("ps write");
		c->hdr_out += n;
		if (c->hdr_out < sizeof(*h))
			return;
	}
	while (c->out_left) {
		n = write(c->fd, zeros, c->out_left < CHUNK ? c->out_left : CHUNK);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0)
			die("ps write");
		c->out_left -= n;
	}
}

/* Read what a worker sent; returns 1 when its gradient became complete. */
static int ps_read(struct conn *c, uint32_t iter, uint64_t *t_done)
{
	int r = msg_read(c->fd, &c->in, MAGIC_GRAD, NULL);

	if (r < 0) {
		errno = 0;
		die("ps read: a worker left");
	}
	if (r == 1 && c->in.h.iter != iter) {
		errno = 0;
		die("gradient of iteration %u in %u", c->in.h.iter, iter);
	}
	if (r == 1) {
		*t_done = c->in.h.t_done;
		c->done = 1;
	}
	return r;
}

static void ps_iteration(struct conn *cs, int w, uint32_t iter,
			 uint64_t update, struct iter_rec *r)
{
	struct msg_hdr h = { .magic = MAGIC_UPDATE, .iter = iter, .len = update };
	struct pollfd pfd[MAX_WORKERS];
	int i, left = w;

	r->start = now_ns();
	r->burst = 0;
	for (i = 0; i < w; i++) {
		cs[i].out_left = update;
		cs[i].hdr_out = 0;
		cs[i].done = 0;
		ps_write(&cs[i], &h);
	}
	while (left) {
		for (i = 0; i < w; i++) {
			pfd[i].fd = cs[i].fd;
			pfd[i].events = POLLIN;
			if (cs[i].hdr_out < sizeof(h) || cs[i].out_left)
				pfd[i].events |= POLLOUT;
		}
		if (poll(pfd, w, poll_ms()) < 0 && errno != EINTR)
			die("poll");
		check_deadline("ps iteration");
		for (i = 0; i < w; i++) {
			uint64_t t = 0;

			if (pfd[i].revents & POLLOUT)
				ps_write(&cs[i], &h);
			if (!cs[i].done && (pfd[i].revents & (POLLIN | POLLHUP |
							       POLLERR)) &&
			    ps_read(&cs[i], iter, &t)) {
				left--;
				if (t > r->burst)
					r->burst = t;
			}
		}
	}
	r->end = now_ns();
}

/* The PS's record of its run (a ring member prints the same). */
static void print_iters(const struct opts *o, uint64_t launch, uint64_t t0,
			const struct iter_rec *rec)
{
	int i;

	printf("{\"role\": \"ps\", \"job\": \"%s\", \"port\": %d, "
	       "\"workers\": %d, \"update\": %llu, \"launch\": %llu, "
	       "\"start\": %llu, \"end\": %llu, \"iters\": [",
	       o->job, o->port, o->workers, (unsigned long long)o->update,
	       (unsigned long long)launch, (unsigned long long)t0,
	       (unsigned long long)rec[o->iters - 1].end);
	for (i = 0; i < o->iters; i++)
		printf("%s{\"start\": %llu, \"burst\": %llu, \"end\": %llu}",
		       i ? ", " : "", (unsigned long long)rec[i].start,
		       (unsigned long long)rec[i].burst,
		       (unsigned long long)rec[i].end);
	printf("]}\n");
}

static int run_ps(const struct opts *o)
{
	struct conn *cs = calloc(o->workers, sizeof(*cs));
	struct iter_rec *rec = calloc(o->iters, sizeof(*rec));
	uint64_t t0, launch;
	int lfd, i;

	if (!cs || !rec)
		die("calloc");
	lfd = tcp_listen(o->port);
	launch = o->epoch_ns ? o->epoch_ns : now_ns() + 1000000000ull;
	for (i = 0; i < o->workers; i++) {
		struct pollfd p = { .fd = lfd, .events = POLLIN };
		int one = 1;

		while (poll(&p, 1, poll_ms()) <= 0)
			check_deadline("accept");
		cs[i].fd = accept(lfd, NULL, NULL);
		if (cs[i].fd < 0)
			die("accept");
		set_tos(cs[i].fd, o->tos);
		setsockopt(cs[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		set_nonblock(cs[i].fd);
	}
	launch += o->delay_ms * 1000000ull;
	sleep_until(launch);
	t0 = now_ns();
	for (i = 0; i < o->iters; i++)
		ps_iteration(cs, o->workers, i, o->update, &rec[i]);

	print_iters(o, launch, t0, rec);
	for (i = 0; i < o->workers; i++)
		close(cs[i].fd);
	close(lfd);
	free(cs);
	free(rec);
	return 0;
}

/* A worker ------------------------------------------------------------- */

/* One shard of a worker's job: a connection to one of its PS hosts. */
struct shard {
	int fd;
	uint64_t grad;		/* gradient bytes pushed to this shard */
	struct msg_in in;	/* the update being read */
	int done;		/* this iteration's update is whole */
	uint64_t t_done;	/* when this iteration's update was complete */
};

/*
 * A worker of a job whose PS is sharded over the hosts of -a (a comma
 * list; -g gives each shard's gradient, or one size for all): it waits
 * for every shard's update, computes, then pushes each shard its part
 * of the gradient, reporting to each when that shard's update was whole.
 */
static int run_worker(const struct opts *o)
{
	struct buckets b = { .width = o->bucket_ms * 1000000ull };
	struct shard sh[MAX_SHARDS] = { 0 };
	struct pollfd pfd[MAX_SHARDS];
	char addrs[256], *a, *save = NULL;
	const char *g = o->grads;
	uint32_t iters = 0;
	int i, n = 0, left, closed;
	size_t k;

	if (strlen(o->addr) >= sizeof(addrs)) {
		errno = 0;
		die("address list too long");
	}
	strcpy(addrs, o->addr);
	for (a = strtok_r(addrs, ",", &save); a; a = strtok_r(NULL, ",", &save)) {
		if (n == MAX_SHARDS) {
			errno = 0;
			die("more than %d shards", MAX_SHARDS);
		}
		sh[n].grad = strtoull(g, NULL, 0);
		if (strchr(g, ','))
			g = strchr(g, ',') + 1;
		sh[n].fd = tcp_connect(a, o->port, o->tos);
		n++;
	}
	for (;;) {
		uint64_t t = 0;

		/* every shard's update, read as it comes */
		for (i = 0; i < n; i++) {
			set_nonblock(sh[i].fd);
			sh[i].done = 0;
		}
		for (left = n, closed = 0; left > 0;) {
			for (i = 0; i < n; i++) {
				pfd[i].fd = sh[i].done ? -1 : sh[i].fd;
				pfd[i].events = POLLIN;
			}
			if (poll(pfd, n, poll_ms()) < 0 && errno != EINTR)
				die("poll");
			check_deadline("worker");
			for (i = 0; i < n; i++) {
				int r;

				if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
					continue;
				r = msg_read(sh[i].fd, &sh[i].in, MAGIC_UPDATE, &b);
				if (!r)
					continue;
				sh[i].done = 1;
				sh[i].t_done = now_ns();
				closed += r < 0;
				left--;
			}
		}
		if (closed)
			break;		/* the PS is done */
		for (i = 0; i < n; i++) {
			fcntl(sh[i].fd, F_SETFL,
			      fcntl(sh[i].fd, F_GETFL) & ~O_NONBLOCK);
			if (sh[i].t_done > t)
				t = sh[i].t_done;
		}
		if (o->compute_us)
			sleep_until(t + o->compute_us * 1000ull);
		for (i = 0; i < n; i++) {
			struct msg_hdr h = sh[i].in.h;
			uint64_t rest;

			h.magic = MAGIC_GRAD;
			h.t_done = sh[i].t_done;
			h.len = sh[i].grad;
			write_full(sh[i].fd, &h, sizeof(h));
			for (rest = sh[i].grad; rest; rest -= k) {
				k = rest < CHUNK ? rest : CHUNK;
				write_full(sh[i].fd, zeros, k);
			}
		}
		iters++;
	}
	printf("{\"role\": \"worker\", \"job\": \"%s\", \"iters\": %u, "
	       "\"bucket_ns\": %llu, \"first\": %llu, \"bytes\": [",
	       o->job, iters, (unsigned long long)b.width,
	       (unsigned long long)b.first);
	for (k = 0; k < b.n; k++)
		printf("%s%llu", k ? ", " : "", (unsigned long long)b.bytes[k]);
	printf("]}\n");
	free(b.bytes);
	for (i = 0; i < n; i++)
		close(sh[i].fd);
	return 0;
}

/* A ring all-reduce member -------------------------------------------- */

/* One step of the ring: send CHUNK bytes to the next, receive CHUNK bytes
 * from the previous member, at once. */
static void ring_step(int in, int out, uint64_t chunk)
{
	uint64_t tx = chunk, rx = chunk;

	while (tx || rx) {
		struct pollfd p[2] = {
			{ .fd = tx ? out : -1, .events = POLLOUT },
			{ .fd = rx ? in : -1, .events = POLLIN },
		};
		ssize_t n;

		if (poll(p, 2, poll_ms()) < 0 && errno != EINTR)
			die("poll");
		check_deadline("ring step");
		if (p[0].revents & (POLLOUT | POLLERR)) {
			n = write(out, zeros, tx < CHUNK ? tx : CHUNK);
			if (n < 0 && errno != EAGAIN)
				die("ring write");
			if (n > 0)
				tx -= n;
		}
		if (p[1].revents & (POLLIN | POLLHUP | POLLERR)) {
			n = read(in, sink_buf, rx < CHUNK ? rx : CHUNK);
			if (n == 0 || (n < 0 && errno != EAGAIN))
				die("ring read");
			if (n > 0)
				rx -= n;
		}
	}
}

/*
 * A member of a ring all-reduce of UPDATE bytes among WORKERS members:
 * every iteration 2(W-1) steps, each sending a W-th of the tensor to the
 * next member (-a, on PORT) while receiving one from the previous (which
 * connects to PORT here); a step begins when the one before it has
 * received, as the reduction needs.  Then compute.  Prints the PS's
 * record: per iteration its start, the all-reduce's end as the burst,
 * and the end of compute.
 */
static int run_ring(const struct opts *o)
{
	struct iter_rec *rec = calloc(o->iters, sizeof(*rec));
	uint64_t chunk = (o->update + o->workers - 1) / o->workers;
	int steps = 2 * (o->workers - 1), lfd, in, out, i, s, one = 1;
	struct pollfd p;
	uint64_t t0, launch;

	if (!rec)
		die("calloc");
	lfd = tcp_listen(o->port);
	out = tcp_connect(o->addr, o->port, o->tos);
	p.fd = lfd;
	p.events = POLLIN;
	while (poll(&p, 1, poll_ms()) <= 0)
		check_deadline("accept");
	in = accept(lfd, NULL, NULL);
	if (in < 0)
		die("accept");
	setsockopt(in, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	set_nonblock(in);
	set_nonblock(out);
	launch = o->epoch_ns ? o->epoch_ns : now_ns() + 1000000000ull;
	launch += o->delay_ms * 1000000ull;
	sleep_until(launch);
	t0 = now_ns();
	for (i = 0; i < o->iters; i++) {
		rec[i].start = now_ns();
		for (s = 0; s < steps; s++)
			ring_step(in, out, chunk);
		rec[i].burst = now_ns();
		if (o->compute_us)
			sleep_until(rec[i].burst + o->compute_us * 1000ull);
		rec[i].end = now_ns();
	}
	print_iters(o, launch, t0, rec);
	close(in);
	close(out);
	close(lfd);
	free(rec);
	return 0;
}

/* Load generators ------------------------------------------------------ */

static int run_bulk(const struct opts *o)
{
	struct pollfd pfd[MAX_WORKERS];
	uint64_t end = now_ns() + (uint64_t)(o->secs * 1e9);
	int i;

	for (i = 0; i < o->flows; i++) {
		pfd[i].fd = tcp_connect(o->addr, o->port, o->tos);
		pfd[i].events = POLLOUT;
		set_nonblock(pfd[i].fd);
	}
	while (now_ns() < end) {
		if (poll(pfd, o->flows, 100) < 0 && errno != EINTR)
			die("poll");
		for (i = 0; i < o->flows; i++)
			if ((pfd[i].revents & POLLOUT) &&
			    write(pfd[i].fd, zeros, CHUNK) < 0 &&
			    errno != EAGAIN)
				die("bulk write");
	}
	for (i = 0; i < o->flows; i++)
		close(pfd[i].fd);
	return 0;
}

static int run_sink(const struct opts *o)
{
	struct pollfd pfd[MAX_WORKERS + 1];
	uint64_t end = now_ns() + (uint64_t)(o->secs * 1e9);
	unsigned long long total = 0;
	int i, n = 1;

	pfd[0].fd = tcp_listen(o->port);
	pfd[0].events = POLLIN;
	while (now_ns() < end) {
		if (poll(pfd, n, 100) < 0 && errno != EINTR)
			die("poll");
		if ((pfd[0].revents & POLLIN) && n <= MAX_WORKERS) {
			pfd[n].fd = accept(pfd[0].fd, NULL, NULL);
			pfd[n].events = POLLIN;
			if (pfd[n].fd >= 0)
				n++;
		}
		for (i = 1; i < n; i++) {
			ssize_t r;

			if (!(pfd[i].revents & (POLLIN | POLLHUP | POLLERR)))
				continue;
			r = read(pfd[i].fd, sink_buf, CHUNK);
			if (r > 0) {
				total += r;
				continue;
			}
			close(pfd[i].fd);
			pfd[i--] = pfd[--n];
		}
	}
	printf("received %llu\n", total);
	return 0;
}

static int run_burst(const struct opts *o)
{
	static struct mmsghdr msgs[MAX_BURST];
	static struct iovec iov;
	struct sockaddr_in dst = make_addr(o->addr, o->port);
	uint64_t t = o->epoch_ns ? o->epoch_ns : now_ns();
	uint64_t end = t + (uint64_t)(o->secs * 1e9) + !o->secs;
	uint64_t period = o->period_ms * 1000000ull;
	unsigned long long sent = 0, dropped = 0;
	int i, fd = socket(AF_INET, SOCK_DGRAM, 0);

	if (fd < 0)
		die("socket");
	set_tos(fd, o->tos);
	if (o->mark &&
	    setsockopt(fd, SOL_SOCKET, SO_MARK, &o->mark, sizeof(o->mark)))
		die("SO_MARK");
	if (o->prio && setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &o->prio,
				  sizeof(o->prio)))
		die("SO_PRIORITY");
	if (o->sport) {
		struct sockaddr_in src = make_addr(NULL, o->sport);

		if (bind(fd, (struct sockaddr *)&src, sizeof(src)))
			die("bind to %d", o->sport);
	}
	iov.iov_base = zeros;
	iov.iov_len = o->size;
	for (i = 0; i < o->count; i++) {
		msgs[i].msg_hdr.msg_name = &dst;
		msgs[i].msg_hdr.msg_namelen = sizeof(dst);
		msgs[i].msg_hdr.msg_iov = &iov;
		msgs[i].msg_hdr.msg_iovlen = 1;
	}
	for (; t < end; t += period) {
		uint64_t late;
		int done = 0;

		sleep_until(t);
		/* A burst a whole period late skips the missed ones: bursts
		 * stay on the grid, as a job's iterations would.
		 */
		late = now_ns() - t;
		if (late >= period)
			t += late / period * period;
		/* The socket buffer holds the whole burst: one call, unless
		 * the qdisc is still holding an earlier one.
		 */
		while (done < o->count) {
			int n = sendmmsg(fd, msgs + done, o->count - done, 0);

			if (n < 0 && errno == ENOBUFS) {
				dropped++;
				n = 1;
			} else if (n < 0) {
				die("sendmmsg");
			}
			done += n;
		}
		sent += done;
	}
	printf("sent %llu dropped %llu\n", sent, dropped);
	close(fd);
	return 0;
}

/* Enter network namespace NAME (/run/netns/NAME) before any socket. */
static void enter_netns(const char *name)
{
	char path[256];
	int fd;

	errno = 0;
	if (strchr(name, '/') ||
	    snprintf(path, sizeof(path), "/run/netns/%s", name) >=
	    (int)sizeof(path))
		die("bad namespace name '%s'", name);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || setns(fd, CLONE_NEWNET))
		die("network namespace %s", name);
	close(fd);
}

static void usage(void)
{
	fprintf(stderr,
		"usage: ddlemu ps|worker|ring|bulk|sink|burst|now [options]\n"
		"  (see the comment at the top of bench/ddlemu.c)\n");
	exit(2);
}

static uint64_t num(const char *s)
{
	char *end;
	unsigned long long v;

	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || *end || end == s)
		die("bad number '%s'", s);
	return v;
}

int main(int argc, char **argv)
{
	struct opts o = {
		.job = "job", .workers = 1, .iters = 1, .flows = 1,
		.count = 1, .size = 1000, .tos = -1, .bucket_ms = 10,
		.secs = 10, .timeout = 600, .period_ms = 1000, .grads = "0",
	};
	const char *role, *netns = NULL;
	int c;

	if (argc < 2)
		usage();
	role = argv[1];
	optind = 2;
	while ((c = getopt(argc, argv, "a:b:c:d:E:f:g:j:l:m:n:N:o:p:P:s:S:t:T:u:w:")) != -1) {
		switch (c) {
		case 'a': o.addr = optarg; break;
		case 'b': o.bucket_ms = num(optarg); break;
		case 'c': o.compute_us = num(optarg); break;
		case 'd': o.delay_ms = num(optarg); break;
		case 'E': o.epoch_ns = num(optarg); break;
		case 'f': o.flows = num(optarg); break;
		case 'g': o.grads = optarg; break;
		case 'j': o.job = optarg; break;
		case 'l': o.size = num(optarg); break;
		case 'm': o.mark = num(optarg); break;
		case 'n': o.iters = o.count = num(optarg); break;
		case 'N': netns = optarg; break;
		case 'o': o.prio = num(optarg); break;
		case 'p': o.port = num(optarg); break;
		case 'P': o.period_ms = num(optarg); break;
		case 's': o.secs = atof(optarg); break;
		case 'S': o.sport = num(optarg); break;
		case 't': o.timeout = atof(optarg); break;
		case 'T': o.tos = num(optarg); break;
		case 'u': o.update = num(optarg); break;
		case 'w': o.workers = num(optarg); break;
		default: usage();
		}
	}
	if (optind != argc || o.workers < 1 || o.workers > MAX_WORKERS ||
	    o.flows < 1 || o.flows > MAX_WORKERS || o.iters < 1 ||
	    o.count > MAX_BURST || o.size < 1 || o.size > CHUNK ||
	    !o.bucket_ms || !o.period_ms)
		usage();
	if (netns)
		enter_netns(netns);
	signal(SIGPIPE, SIG_IGN);
	deadline = now_ns() + (uint64_t)(o.timeout * 1e9);
	if (!strcmp(role, "ps") && o.port)
		return run_ps(&o);
	if (!strcmp(role, "worker") && o.addr && o.port)
		return run_worker(&o);
	if (!strcmp(role, "bulk") && o.addr && o.port)
		return run_bulk(&o);
	if (!strcmp(role, "ring") && o.addr && o.port)
		return run_ring(&o);
	if (!strcmp(role, "sink") && o.port)
		return run_sink(&o);
	if (!strcmp(role, "burst") && o.addr && o.port)
		return run_burst(&o);
	if (!strcmp(role, "now")) {
		printf("%llu\n", (unsigned long long)(now_ns() +
						       o.delay_ms * 1000000));
		return 0;
	}
	usage();
	return 2;
}
