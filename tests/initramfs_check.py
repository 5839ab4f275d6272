#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The initramfs of bench-linerate's fallback (bench/linerate.py), built on
this host without a VM and read back ("ok - ..." lines; about a second).

It builds one image, gzipped, with made-up kernel modules (ELF files with
a .modinfo section: vermagic and depends, written here) as sch_ddl.ko and
a modules tree (pktgen depending on a made-up helper module, dummy, sch_fq,
sch_fq_codel listed in modules.builtin, a bzImage whose setup header names
the release), then parses the archive with a reader of its own (not
linerate.parse_newc) and checks:

- every header is newc's ("070701"), 4-byte aligned, ends with the
  trailer, the archive gunzips;
- /init is a regular file, mode 0755, the repository's bench/linerate-init;
  /dev/console is the character device 5:1;
- /bin/sh, tc, ip, insmod, mount, sleep, cat are executables, and every
  library each one and the tc plugin names in its ELF dynamic section
  (DT_NEEDED, read here) is in the archive under a directory of
  /etc/linerate/libpath, as is the ELF interpreter (PT_INTERP);
- /etc/linerate/modules lists the modules dependencies first (the helper
  before pktgen), sch_ddl last, each present; a built-in one (fq_codel)
  is not in the image;
- and the refusals: a sch_ddl.ko built for another release than the
  bzImage's, and a needed module missing, each fail the build with a
  message that says so; linerate.console() finds the JSON between the
  markers amid kernel messages and fails without the end marker.

  tests/initramfs_check.py
"""

import gzip
import os
import shutil
import struct
import sys
import tempfile
import types

import tap

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(TOP, 'bench'))
import linerate  # noqa: E402

REL = '6.99.0-linerate-test'


def fake_ko(vermagic, depends=''):
    """A minimal ELF file with a .modinfo section (and .shstrtab)."""
    modinfo = ('vermagic=%s\0depends=%s\0name=x\0' % (vermagic, depends)
               ).encode()
    shstr = b'\0.modinfo\0.shstrtab\0'
    off_mi = 64
    off_ss = off_mi + len(modinfo)
    shoff = (off_ss + len(shstr) + 7) & ~7
    ehdr = b'\x7fELF' + bytes([2, 1, 1]) + b'\0' * 9
    ehdr += struct.pack('<HHIQQQIHHHHHH', 1, 62, 1, 0, 0, shoff, 0, 64, 0, 0,
                        64, 3, 2)
    body = ehdr + modinfo + shstr
    body += b'\0' * (shoff - len(body))
    sh = [struct.pack('<IIQQQQIIQQ', 0, 0, 0, 0, 0, 0, 0, 0, 0, 0),
          struct.pack('<IIQQQQIIQQ', 1, 1, 0, 0, off_mi, len(modinfo), 0, 0,
                      1, 0),
          struct.pack('<IIQQQQIIQQ', 10, 3, 0, 0, off_ss, len(shstr), 0, 0,
                      1, 0)]
    return body + b''.join(sh)


def fake_bzimage(release):
    head = bytearray(0x1000)
    head[0x202:0x206] = b'HdrS'
    struct.pack_into('<H', head, 0x20e, 0x400)
    v = (release + ' (test) #1 SMP').encode()
    head[0x600:0x600 + len(v)] = v
    return bytes(head)


def read_cpio(buf):
    """(name, mode, data, rdev) of each entry; raise on a bad header."""
    assert buf[:2] == b'\x1f\x8b', 'not gzipped'
    buf = gzip.decompress(buf)
    off, out = 0, []
    while True:
        assert off % 4 == 0, 'header at %d not aligned' % off
        h = buf[off:off + 110]
        assert h[:6] == b'070701', 'bad magic at %d' % off
        v = [int(h[6 + 8 * i:14 + 8 * i], 16) for i in range(13)]
        name = buf[off + 110:off + 110 + v[11] - 1].decode()
        off = (off + 110 + v[11] + 3) & ~3
        data = buf[off:off + v[6]]
        off = (off + v[6] + 3) & ~3
        if name == 'TRAILER!!!':
            assert buf[off:].strip(b'\0') == b'', 'data after the trailer'
            return out
        out.append(('/' + name, v[1], data, (v[9], v[10])))


def needed(data):
    """DT_NEEDED names and PT_INTERP of ELF @data (64-bit LE)."""
    phoff, = struct.unpack_from('<Q', data, 0x20)
    phentsize, phnum = struct.unpack_from('<HH', data, 0x36)
    interp, dyn, loads = None, None, []
    for i in range(phnum):
        t, _, off, vaddr, _, fsz = struct.unpack_from(
            '<IIQQQQ', data, phoff + i * phentsize)
        if t == 3:
            interp = data[off:off + fsz].rstrip(b'\0').decode()
        elif t == 2:
            dyn = (off, fsz)
        elif t == 1:
            loads.append((vaddr, off, fsz))

    def at(vaddr):
        for v, o, s in loads:
            if v <= vaddr < v + s:
                return o + vaddr - v
        raise ValueError('address %x not loaded' % vaddr)
    names, strtab = [], None
    ents = [struct.unpack_from('<qQ', data, dyn[0] + 16 * i)
            for i in range(dyn[1] // 16)] if dyn else []
    for tag, val in ents:
        if tag == 5:
            strtab = at(val)
    for tag, val in ents:
        if tag == 1:
            end = data.index(b'\0', strtab + val)
            names.append(data[strtab + val:end].decode())
    return names, interp


def build(tmp, ko_release, drop=None, name='img'):
    """Build an image in @tmp; the Namespace used; raises linerate.Error."""
    mods = os.path.join(tmp, 'mods-' + name)
    os.makedirs(os.path.join(mods, 'kernel'), exist_ok=True)
    files = {'pktgen': fake_ko(REL, 'lrhelper'), 'lrhelper': fake_ko(REL),
             'dummy': fake_ko(REL), 'sch_fq': fake_ko(REL)}
    for m, data in files.items():
        if m != drop:
            with open(os.path.join(mods, 'kernel', m + '.ko'), 'wb') as f:
                f.write(data)
    with open(os.path.join(mods, 'modules.builtin'), 'w') as f:
        f.write('kernel/net/sched/sch_fq_codel.ko\n')
    bz = os.path.join(tmp, 'bzImage')
    with open(bz, 'wb') as f:
        f.write(fake_bzimage(REL))
    ko = os.path.join(tmp, 'sch_ddl-%s.ko' % name)
    with open(ko, 'wb') as f:
        f.write(fake_ko(ko_release + ' SMP mod_unload'))
    plugin = os.path.join(TOP, 'tc-plugin', 'q_ddl.so')
    a = types.SimpleNamespace(
        o=os.path.join(tmp, name + '.cpio.gz'), ko=ko, kernel=bz,
        modules=mods, plugin=plugin if os.path.exists(plugin) else None,
        qbench=None, init=os.path.join(TOP, 'bench', 'linerate-init'),
        bin=None, gzip=True, tree=None)
    with open(os.devnull, 'w') as log:
        img = linerate.build(a, log)
    data = gzip.compress(linerate.newc(img.entries()), 6, mtime=0)
    with open(a.o, 'wb') as f:
        f.write(data)
    return a


def main():
    tmp = tempfile.mkdtemp(prefix='initramfs-check.')
    try:
        return check(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def check(tmp):
    a = build(tmp, REL)
    try:
        ents = read_cpio(open(a.o, 'rb').read())
        tap.check(True, 'the archive gunzips and every header is newc, '
                  '4-byte aligned, up to the trailer (%d entries)' %
                  len(ents))
    except (AssertionError, OSError, ValueError) as e:
        tap.check(False, 'the archive reads back', str(e))
        return 1
    by = {n: (m, d, r) for n, m, d, r in ents}
    names = [n for n, _, _, _ in ents]
    tap.check(len(names) == len(set(names)), 'no path twice')
    init = by.get('/init')
    tap.check(init is not None and init[0] == 0o100755 and
              init[1] == open(a.init, 'rb').read(),
              '/init: a regular file, mode 0755, bench/linerate-init',
              'mode %o' % init[0] if init else 'missing')
    con = by.get('/dev/console')
    tap.check(con is not None and con[0] & 0o170000 == 0o020000 and
              con[2] == (5, 1), '/dev/console: character device 5:1')
    libpath = by.get('/etc/linerate/libpath', (0, b''))[1].decode().strip()
    dirs = libpath.split(':') if libpath else []
    progs = ['/bin/' + p for p in ('sh',) + linerate.PROGS]
    if a.plugin:
        progs.append('/lib/tc/q_ddl.so')
    else:
        print('# no tc-plugin/q_ddl.so built: the plugin is not checked')
    missing = []
    for p in progs:
        if p not in by or not by[p][0] & 0o111 and p.startswith('/bin/'):
            missing.append(p + ' (absent or not executable)')
            continue
        libs, interp = needed(by[p][1])
        if interp and interp not in by:
            missing.append('%s: interpreter %s' % (p, interp))
        for lib in libs:
            if not any(d + '/' + lib in by for d in dirs):
                missing.append('%s: %s' % (p, lib))
    tap.check(not missing, 'sh, %s%s: executables, each library of their '
              'DT_NEEDED under /etc/linerate/libpath (%s), and their ELF '
              'interpreter, in the image' % (
                  ', '.join(linerate.PROGS), ' and q_ddl.so' if a.plugin
                  else '', libpath), '; '.join(missing[:5]))
    order = by.get('/etc/linerate/modules', (0, b''))[1].decode().split()
    base = [os.path.basename(m)[:-3] for m in order]
    tap.check('lrhelper' in base and 'pktgen' in base and
              base.index('lrhelper') < base.index('pktgen') and
              base[-1] == 'sch_ddl' and all(m in by for m in order),
              'modules listed dependencies first, sch_ddl last, each in the '
              'image', ' '.join(base))
    tap.check('sch_fq_codel' not in base and
              not any('fq_codel' in n for n in names),
              'a built-in module (modules.builtin) left out')

    def refused(desc, want, **kw):
        try:
            build(tmp, **kw)
            tap.check(False, desc, 'built')
        except linerate.Error as e:
            tap.check(want in str(e), desc, str(e))
    refused('a sch_ddl.ko for another kernel release is refused',
            'built for 6.1.0-other', ko_release='6.1.0-other', name='other')
    refused('a needed module missing (sch_fq) is refused',
            'no sch_fq.ko', ko_release=REL, drop='sch_fq', name='nofq')

    log = ('[ 1.0] booting\n\x1b[2J' + linerate.BEGIN + '\r\n'
           '{"type":"info","cpus":2}\r\n[ 2.0] a kernel message\r\n'
           '{"type":"run","row":"fq","qdisc":"fq","run":1,"pkts":100,'
           '"cs":100,"busy_ticks":50}\r\n' + linerate.END + '\r\n')
    recs, junk = linerate.console(log)
    tap.check(len(recs) == 2 and len(junk) == 1 and
              linerate.rates(recs)[0]['median'] == 100,
              'console: the JSON between the markers, kernel messages '
              'apart', repr((recs, junk)))
    try:
        linerate.console(log.split(linerate.END)[0])
        tap.check(False, 'console: no end marker is a failure')
    except linerate.Error:
        tap.check(True, 'console: no end marker is a failure')
    return 1 if tap.failed else 0


if __name__ == '__main__':
    sys.exit(main())
