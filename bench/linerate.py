#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
#
# The host's half of bench/bench-linerate: the initramfs of its fallback,
# the reading of that guest's serial console, and the summary.
#
# initramfs: a plain newc cpio (the format the kernel unpacks,
# Documentation/driver-api/early-userspace/buffer-format.rst), written
# here byte by byte, optionally gzipped, holding only what the guest's
# /init (bench/linerate-init) runs: the host's sh (bash, else dash), tc,
# ip, insmod (kmod), mount, sleep and cat, each with the shared libraries
# its ELF interpreter lists (`INTERP --list FILE`, what ldd runs), the
# interpreter itself; the tc plugin q_ddl.so (/lib/tc); sch_ddl.ko built
# for the kernel that boots it, and from --modules (that kernel's
# /lib/modules/KVER) pktgen, dummy, sch_fq, sch_fq_codel, sch_prio and
# veth with what their .modinfo "depends=" names, unless modules.builtin
# says the kernel has them built in; optionally the in-kernel timing
# harness ddl_qbench.ko (tests/harness).  Modules go in
# /lib/modules/linerate/ and are listed, dependencies first, in
# /etc/linerate/modules, which /init loads in that order with insmod (no
# depmod, no modprobe).  xz- and gzip-compressed modules are unpacked here
# (the kernel then needs no module decompression).  Nothing else: no
# busybox, no root file system, no 9p share.
#
# The module's vermagic must name the kernel release that the bzImage's
# setup header gives (offset 0x20e, boot protocol 2.00+): else the build
# fails with the command that builds one that fits.
#
# console: the guest prints its results as JSON lines between the markers
# BEGIN and END below on the serial console, kernel messages possibly
# among them; every line between them that parses as JSON is kept.
#
#   bench/linerate.py initramfs -o FILE [--ko SCH_DDL_KO] [--kernel BZIMAGE]
#                     [--modules DIR (and sch_ddl.ko from there without --ko)] [--plugin SO] [--qbench KO]
#                     [--init SCRIPT] [--bin PROG]... [--gzip] [--tree DIR]
#   bench/linerate.py console CONSOLE_LOG [--json FILE]
#   bench/linerate.py summary DIR          (bench-linerate's JSON in DIR)

import argparse
import gzip
import io
import json
import lzma
import os
import re
import shutil
import stat
import statistics
import struct
import subprocess
import sys

BEGIN = '@@LINERATE-BEGIN@@'
END = '@@LINERATE-END@@'
PROGS = ('tc', 'ip', 'insmod', 'mount', 'sleep', 'cat')
MODULES = ('dummy', 'veth', 'pktgen', 'sch_fq', 'sch_fq_codel', 'sch_prio')
# Without these the benchmark cannot run at all (when not built in).
NEEDED = ('dummy', 'pktgen', 'sch_fq')
MODDIR = '/lib/modules/linerate'


class Error(Exception):
    pass


# --- newc cpio -----------------------------------------------------------

def _pad4(n):
    return (4 - n % 4) % 4


def newc(entries):
    """The newc archive of @entries, a list of dicts (name without a
    leading '/', mode with its type bits, data bytes, rdev (major, minor)
    for device nodes), in the order given, then the trailer."""
    out = io.BytesIO()
    for ino, e in enumerate(list(entries) + [{'name': 'TRAILER!!!',
                                              'mode': 0, 'data': b''}], 1):
        name = e['name'].encode() + b'\0'
        data = e.get('data', b'')
        major, minor = e.get('rdev', (0, 0))
        nlink = 2 if stat.S_ISDIR(e['mode']) else 1
        fields = (0 if e['name'] == 'TRAILER!!!' else ino, e['mode'], 0, 0,
                  nlink, 0, len(data), 0, 0, major, minor, len(name), 0)
        hdr = b'070701' + b''.join(b'%08X' % f for f in fields)
        out.write(hdr + name + b'\0' * _pad4(len(hdr) + len(name)))
        out.write(data + b'\0' * _pad4(len(data)))
    return out.getvalue()


def parse_newc(buf):
    """The entries of newc archive @buf (gzipped or not), up to the
    trailer, as dicts like newc()'s; Error if it is not well formed."""
    if buf[:2] == b'\x1f\x8b':
        buf = gzip.decompress(buf)
    entries, off = [], 0
    while True:
        if off % 4:
            raise Error('entry at %d not 4-byte aligned' % off)
        hdr = buf[off:off + 110]
        if len(hdr) < 110 or hdr[:6] != b'070701':
            raise Error('no newc header at offset %d' % off)
        f = [int(hdr[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        size, namesize = f[6], f[11]
        name = buf[off + 110:off + 110 + namesize]
        if not name.endswith(b'\0'):
            raise Error('name at %d not NUL-terminated' % off)
        off += 110 + namesize
        off += _pad4(off)
        data = buf[off:off + size]
        if len(data) != size:
            raise Error('%s: truncated' % name[:-1].decode())
        off += size + _pad4(size)
        name = name[:-1].decode()
        if name == 'TRAILER!!!':
            return entries
        entries.append({'name': name, 'mode': f[1], 'data': data,
                        'rdev': (f[9], f[10])})


# --- ELF -----------------------------------------------------------------

def elf_sections(data):
    """{name: bytes} of the sections of 64-bit little-endian ELF @data."""
    if data[:4] != b'\x7fELF' or data[4] != 2 or data[5] != 1:
        raise Error('not a 64-bit little-endian ELF file')
    shoff, = struct.unpack_from('<Q', data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', data, 0x3a)
    shs = [struct.unpack_from('<IIQQQQ', data, shoff + i * shentsize)
           for i in range(shnum)]
    stro = shs[shstrndx][4]
    res = {}
    for name, typ, _, _, off, size in shs:
        end = data.index(b'\0', stro + name)
        res[data[stro + name:end].decode()] = \
            b'' if typ == 8 else data[off:off + size]
    return res


def modinfo(data):
    """A kernel module's .modinfo as a dict (the first of each key)."""
    info = {}
    for kv in elf_sections(data).get('.modinfo', b'').split(b'\0'):
        k, _, v = kv.decode(errors='replace').partition('=')
        if k:
            info.setdefault(k, v)
    return info


def interp(path):
    """The ELF interpreter (PT_INTERP) of executable @path, or None."""
    with open(path, 'rb') as f:
        data = f.read()
    if data[:4] != b'\x7fELF' or data[4] != 2:
        raise Error('%s: not a 64-bit ELF file' % path)
    phoff, = struct.unpack_from('<Q', data, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', data, 0x36)
    for i in range(phnum):
        typ, _, off, _, _, size = struct.unpack_from(
            '<IIQQQQ', data, phoff + i * phentsize)
        if typ == 3:
            return data[off:off + size].rstrip(b'\0').decode()
    return None


def libraries(path, ld):
    """The shared libraries @path loads, as the dynamic linker @ld lists
    them (absolute paths; the vDSO left out); Error on one not found."""
    p = subprocess.run([ld, '--list', path], capture_output=True, text=True)
    if p.returncode:
        raise Error('%s --list %s: %s' % (ld, path, p.stderr.strip()))
    libs = []
    for line in p.stdout.splitlines():
        line = line.strip()
        if 'not found' in line:
            raise Error('%s: %s' % (path, line))
        m = re.match(r'(?:\S+ => )?(/\S+) \(0x[0-9a-f]+\)$', line)
        if m:
            libs.append(m.group(1))
    return libs


def bzimage_release(path):
    """The kernel release in bzImage @path's setup header, or None."""
    with open(path, 'rb') as f:
        head = f.read(0x10000)
    if head[0x202:0x206] != b'HdrS':
        return None
    ptr, = struct.unpack_from('<H', head, 0x20e)
    s = head[ptr + 0x200:ptr + 0x400].split(b'\0')[0].decode(errors='replace')
    return s.split()[0] if s else None


# --- the image -----------------------------------------------------------

class Image:
    """The files of the initramfs, by absolute path."""

    def __init__(self):
        self.files = {}
        self.libdirs = set()

    def dir(self, path):
        if not path.strip('/'):
            return
        parts = path.strip('/').split('/')
        for i in range(1, len(parts) + 1):
            p = '/' + '/'.join(parts[:i])
            if p not in self.files:
                self.files[p] = {'mode': stat.S_IFDIR | 0o755}
            elif not stat.S_ISDIR(self.files[p]['mode']):
                raise Error('%s is a file and a directory' % p)

    def add(self, path, data, mode=0o644):
        self.dir(os.path.dirname(path))
        self.files[path] = {'mode': stat.S_IFREG | mode, 'data': data}

    def node(self, path, major, minor, mode=0o600):
        self.dir(os.path.dirname(path))
        self.files[path] = {'mode': stat.S_IFCHR | mode,
                            'rdev': (major, minor)}

    def copy(self, src, dst=None, mode=None):
        """Host file @src (symlinks followed) at @dst (default: its path)."""
        with open(src, 'rb') as f:
            data = f.read()
        if mode is None:
            mode = 0o755 if os.access(src, os.X_OK) else 0o644
        self.add(dst or src, data, mode)

    def program(self, src, dst, ld):
        """Executable or shared object @src at @dst, with its libraries."""
        self.copy(src, dst, 0o755 if dst.startswith('/bin/') else None)
        for lib in libraries(src, ld):
            if lib not in self.files:
                self.copy(lib, lib, 0o755)
            self.libdirs.add(os.path.dirname(lib))

    def entries(self):
        return [dict(v, name=k.lstrip('/')) for k, v in
                sorted(self.files.items())]

    def unpack(self, top):
        """Write the tree under directory @top (for a 9p root)."""
        for e in self.entries():
            p = os.path.join(top, e['name'])
            if stat.S_ISDIR(e['mode']):
                os.makedirs(p, exist_ok=True)
            elif stat.S_ISREG(e['mode']):
                with open(p, 'wb') as f:
                    f.write(e['data'])
                os.chmod(p, stat.S_IMODE(e['mode']))
            # device nodes: /init opens the console itself on devtmpfs


def read_module(path):
    """Module @path's bytes, unpacked if xz-, gzip- or zstd-compressed."""
    with open(path, 'rb') as f:
        data = f.read()
    if path.endswith('.xz'):
        return lzma.decompress(data)
    if path.endswith('.gz'):
        return gzip.decompress(data)
    if path.endswith('.zst'):
        if not shutil.which('zstd'):
            raise Error('%s: zstd-compressed, and no zstd here' % path)
        return subprocess.run(['zstd', '-dc', path], check=True,
                              capture_output=True).stdout
    return data


def find_modules(moddir):
    """{name: path} of the modules under @moddir, and the built-in names."""
    found = {}
    for root, _, files in os.walk(moddir):
        for f in files:
            m = re.match(r'(.+)\.ko(\.xz|\.gz|\.zst)?$', f)
            if m:
                found.setdefault(m.group(1).replace('-', '_'),
                                 os.path.join(root, f))
    builtin = set()
    bfile = os.path.join(moddir, 'modules.builtin')
    if os.path.exists(bfile):
        for line in open(bfile):
            builtin.add(os.path.basename(line.strip())[:-3].replace('-', '_'))
    return found, builtin


def build(a, log=sys.stderr):
    """The Image for the options @a; its notes printed on @log."""
    img = Image()
    shell = shutil.which('bash') or shutil.which('dash')
    if not shell:
        raise Error('neither bash nor dash on this host')
    first = os.path.realpath(shutil.which('tc') or '/usr/sbin/tc')
    ld = interp(first)
    if not ld:
        raise Error('%s has no ELF interpreter' % first)
    img.program(shell, '/bin/sh', ld)
    progs = list(PROGS) + list(a.bin or [])
    for p in progs:
        path = shutil.which(p, path=os.environ.get('PATH', '') +
                            ':/usr/sbin:/sbin')
        if not path:
            raise Error('%s: not found on this host' % p)
        img.program(os.path.realpath(path), '/bin/' + os.path.basename(p), ld)
    img.copy(ld, ld, 0o755)
    img.copy(a.init, '/init', 0o755)
    img.node('/dev/console', 5, 1)
    img.node('/dev/null', 1, 3, 0o666)
    for d in ('/proc', '/sys', '/tmp', '/run'):
        img.dir(d)
    if a.plugin:
        img.program(a.plugin, '/lib/tc/q_ddl.so', ld)
    else:
        print('initramfs: no tc plugin (--plugin): the ddl rows will fail',
              file=log)

    release = bzimage_release(a.kernel) if a.kernel else None
    found, builtin = find_modules(a.modules) if a.modules else ({}, set())
    if not a.ko:
        if 'sch_ddl' not in found:
            raise Error('no --ko, and no sch_ddl.ko under %s' % a.modules)
        a.ko = found['sch_ddl']
        print('initramfs: sch_ddl from %s' % a.ko, file=log)
    ddl = read_module(a.ko)
    vermagic = modinfo(ddl).get('vermagic', '')
    built_for = vermagic.split()[0] if vermagic else '?'
    if release and built_for != release:
        raise Error('%s was built for %s, the kernel is %s: build it for '
                    'that kernel (make -C /lib/modules/%s/build M=$PWD/kmod)'
                    % (a.ko, built_for, release, release))
    order = []
    if a.modules:
        notes = []

        def want(name, why):
            if name in order or name in builtin:
                return
            if name not in found:
                if name in NEEDED or why:
                    raise Error('%s: no %s.ko and not built in (%s)' % (
                        a.modules, name, why or 'the benchmark needs it'))
                notes.append('%s: not in %s, not built in' % (name,
                                                               a.modules))
                return
            data = read_module(found[name])
            info = modinfo(data)
            mv = info.get('vermagic', '').split()
            if release and mv and mv[0] != release:
                raise Error('%s is for %s, the kernel is %s' % (
                    found[name], mv[0], release))
            for dep in filter(None, info.get('depends', '').split(',')):
                want(dep.replace('-', '_'), 'needed by ' + name)
            img.add('%s/%s.ko' % (MODDIR, name), data)
            order.append(name)
        for m in MODULES:
            want(m, None)
        print('initramfs: modules from %s: %s; built in: %s' % (
            a.modules, ' '.join(order) or 'none',
            ' '.join(m for m in MODULES if m in builtin) or 'none'),
            file=log)
        for n in notes:
            print('initramfs: ' + n, file=log)
    else:
        print('initramfs: no --modules: pktgen, dummy and sch_fq must be '
              'built into the kernel', file=log)
    img.add(MODDIR + '/sch_ddl.ko', ddl)
    order.append('sch_ddl')
    if a.qbench:
        img.add(MODDIR + '/ddl_qbench.ko', read_module(a.qbench))
    img.add('/etc/linerate/modules', ''.join(
        '%s/%s.ko\n' % (MODDIR, m) for m in order).encode())
    # No ld.so.cache in the guest: the libraries' directories, for
    # LD_LIBRARY_PATH.
    img.add('/etc/linerate/libpath',
            (':'.join(sorted(img.libdirs)) + '\n').encode())
    img.add('/etc/linerate/info', ('kernel %s\nsch_ddl %s\n' % (
        release or '?', vermagic)).encode())
    return img


def cmd_initramfs(a):
    img = build(a)
    data = newc(img.entries())
    if a.gzip:
        data = gzip.compress(data, 6, mtime=0)
    with open(a.o, 'wb') as f:
        f.write(data)
    if a.tree:
        img.unpack(a.tree)
    print('initramfs: %s, %d entries, %.1f MB%s' % (
        a.o, len(img.files), len(data) / 1e6, ' (gzip)' if a.gzip else ''),
        file=sys.stderr)


# --- the guest's results -------------------------------------------------

def console(text):
    """The JSON records between the markers of console log @text, and the
    lines between them that did not parse (kernel messages)."""
    recs, junk, inside, done = [], [], False, False
    for line in text.replace('\r', '').split('\n'):
        # the markers may follow the terminal's escape sequences
        if BEGIN in line:
            inside = True
        elif END in line:
            done = True
            break
        elif inside:
            i = line.find('{')
            try:
                recs.append(json.loads(line[i:]) if i >= 0 else None)
            except ValueError:
                recs.append(None)
            if recs[-1] is None:
                recs.pop()
                junk.append(line)
    if not inside:
        raise Error('no %s on the console: the guest did not get to run '
                    'the benchmark' % BEGIN)
    if not done:
        raise Error('no %s on the console: the guest stopped midway' % END)
    return recs, junk


def rates(recs):
    """Per row of the guest's pktgen runs: median pps and its ratios."""
    runs = [r for r in recs if r.get('type') == 'run']
    rows = {}
    for r in runs:
        pps = r['pkts'] * 100 / r['cs'] if r['cs'] > 0 else 0
        x = rows.setdefault(r['row'], {'row': r['row'], 'qdisc': r['qdisc'],
                                       'pps': [], 'pg_pps': [], 'cpu': [],
                                       'errors': 0})
        x['pps'].append(pps)
        x['pg_pps'].append(r.get('pg_pps', 0))
        if r.get('busy_ticks') is not None and r['pkts']:
            # CPU seconds per million packets (USER_HZ ticks).
            x['cpu'].append(r['busy_ticks'] / 100 / r['pkts'] * 1e6)
        x['errors'] += r.get('pg_errors', 0)
    for x in rows.values():
        x['median'] = statistics.median(x['pps']) if x['pps'] else 0
        x['pg_median'] = statistics.median(x['pg_pps']) if x['pg_pps'] \
            else 0
        x['cpu_s_per_mpkt'] = statistics.median(x['cpu']) if x['cpu'] \
            else None
    for base in ('fq', 'mq+fq'):
        b = rows.get(base, {}).get('median')
        for x in rows.values():
            x['vs_' + base.replace('+', '_')] = x['median'] / b if b else None
    return list(rows.values())


def qbench(recs):
    """The in-kernel harness's rows, if it ran: ns/pkt, vs prio and fq."""
    rows = {}
    for r in recs:
        if r.get('type') != 'qbench':
            continue
        f = r['line'].split()
        if len(f) < 10 or f[0].startswith('#'):
            continue
        rows[r['names'][f[0]]] = {'row': r['names'][f[0]], 'kind': f[1],
                                  'ns': int(f[3]) / 10,
                                  'enq_ns': int(f[8]) / 10,
                                  'deq_ns': int(f[9]) / 10}
    for base in ('prio', 'fq'):
        b = rows.get(base, {}).get('ns')
        for x in rows.values():
            x['vs_' + base] = b / x['ns'] if b and x['ns'] else None
    return list(rows.values())


def fmt(v, f='%.3f'):
    return '-' if v is None else f % v


def cmd_console(a):
    text = open(a.log, errors='replace').read()
    try:
        recs, junk = console(text)
    except Error as e:
        print('bench-linerate: %s' % e, file=sys.stderr)
        tail = text.replace('\r', '').strip().split('\n')[-15:]
        print('\n'.join('  console: ' + t[:200] for t in tail),
              file=sys.stderr)
        return 1
    info = next((r for r in recs if r.get('type') == 'info'), {})
    notes = [r['text'] for r in recs if r.get('type') == 'note']
    res = {'version': 1, 'info': info, 'notes': notes, 'rates': rates(recs),
           'qbench': qbench(recs), 'unparsed_lines': junk}
    print('guest: kernel %s, %s CPUs, %s transmit queues, %s pktgen '
          'threads; %s run(s) x %s s per row (+%s s warm-up), rows in turn' % (
              info.get('kernel'), info.get('cpus'), info.get('queues'),
              info.get('threads'), info.get('runs'), info.get('secs'),
              info.get('warmup')))
    print('pktgen, 60-byte UDP, queue_xmit into a dummy device, one thread '
          'per CPU, each on its own queue (XPS):')
    print('%-12s %10s %8s %8s %10s %10s %5s  %s' % (
        'row', 'median pps', 'vs fq', 'vs mq+fq', 'CPU s/Mpkt',
        'pktgen pps', 'errs', 'qdisc'))
    for x in res['rates']:
        print('%-12s %10.0f %8s %8s %10s %10.0f %5d  %s' % (
            x['row'], x['median'], fmt(x['vs_fq']), fmt(x['vs_mq_fq']),
            fmt(x['cpu_s_per_mpkt'], '%.2f'), x['pg_median'], x['errors'],
            x['qdisc']))
    print('(median pps: the dummy\'s tx_packets over the window; CPU '
          's/Mpkt: busy CPU time per million packets, all CPUs; pktgen pps: '
          'the threads\' own rates, start to stop, summed)')
    if res['qbench']:
        print('in-kernel cost (ddl_qbench): ns/pkt, rate vs prio, vs fq')
        for x in res['qbench']:
            print('%-14s %8.1f %8s %8s' % (x['row'], x['ns'],
                                           fmt(x['vs_prio']),
                                           fmt(x['vs_fq'])))
    for n in notes:
        print('note: ' + n)
    if junk:
        print('(%d console line(s) between the markers were not JSON: '
              'kernel messages)' % len(junk))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(res, f, indent=1)
            f.write('\n')
    return 0 if res['rates'] else 1


# --- bench-linerate's summary --------------------------------------------

def load(path):
    try:
        with open(path) as f:
            return json.load(f)
    except (OSError, ValueError):
        return None


def cmd_summary(a):
    d = a.dir
    meta = load(os.path.join(d, 'meta.json')) or {}
    print('accelerator: %s, vCPUs %s' % (meta.get('accel', '?'),
                                          meta.get('vcpus', '?')))
    print('host: %s; commit %s' % (meta.get('cpu', '?'),
                                   meta.get('commit', '?')))
    out = {'meta': meta}
    qc = load(os.path.join(d, 'qdisc-cost.json'))
    print('\nper-packet cost in the kernel (bench-datapath --inkernel):')
    if qc:
        print('  %-12s %8s %8s %8s' % ('row', 'ns/pkt', 'vs prio', 'vs fq'))
        for r in qc['rows']:
            print('  %-12s %8.1f %8.3f %8.3f' % (
                r['name'], r['ns'], r['paired_prio'], r['paired_fq']))
        out['inkernel'] = {r['name']: {'ns': r['ns'],
                                       'vs_prio': r['paired_prio'],
                                       'vs_fq': r['paired_fq']}
                           for r in qc['rows']}
    else:
        print('  ' + meta.get('inkernel', 'no result'))
    ins = load(os.path.join(d, 'insns.json'))
    print('\ninstructions per packet (bench-insns, TCG plugin):')
    if ins:
        print('  %-12s %10s %8s' % ('row', 'insns/pkt', '÷ fq'))
        for r in ins['rows']:
            print('  %-12s %10.1f %8s' % (r['name'], r['total'][0],
                                          fmt(r['vs_fq'], '%.2f')))
        out['insns'] = {r['name']: {'insns': r['total'][0],
                                    'vs_fq': r['vs_fq']}
                        for r in ins['rows']}
    else:
        print('  ' + meta.get('insns', 'no result'))
    bulk = load(os.path.join(d, 'bulk.json'))
    print('\nbulk throughput and CPU (bench-bulk):')
    if bulk:
        # per row: medians, and their ratios to mq+fq's in the same boot
        rows = bulk.get('rows', [])
        print('  %-14s %8s %8s %9s %8s' % ('row', 'Gbit/s', '÷ mq+fq',
                                          'CPU s/GB', '÷ mq+fq'))
        for r in rows:
            print('  %-14s %8.3f %8s %9.2f %8s' % (
                r['name'], r['median_gbps'], fmt(r['gbps_ratio'], '%.3f'),
                r['median_cpu_per_gb'],
                fmt(r['cpu_per_gb_ratio'], '%.3f')))
        if not rows:
            print('  (no "rows" in bulk.json; see the file)')
        out['bulk'] = bulk
    else:
        print('  ' + meta.get('bulk', 'no result'))
    with open(os.path.join(d, 'summary.json'), 'w') as f:
        json.dump(out, f, indent=1)
        f.write('\n')
    return 0


def main():
    ap = argparse.ArgumentParser(prog='bench/linerate.py')
    sub = ap.add_subparsers(dest='cmd', required=True)
    p = sub.add_parser('initramfs')
    p.add_argument('-o', required=True)
    p.add_argument('--ko')
    p.add_argument('--kernel')
    p.add_argument('--modules')
    p.add_argument('--plugin')
    p.add_argument('--qbench')
    p.add_argument('--init', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), 'linerate-init'))
    p.add_argument('--bin', action='append')
    p.add_argument('--gzip', action='store_true')
    p.add_argument('--tree')
    p = sub.add_parser('console')
    p.add_argument('log')
    p.add_argument('--json')
    p = sub.add_parser('summary')
    p.add_argument('dir')
    a = ap.parse_args()
    try:
        return {'initramfs': cmd_initramfs, 'console': cmd_console,
                'summary': cmd_summary}[a.cmd](a) or 0
    except (Error, OSError) as e:
        print('bench/linerate.py: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main())
