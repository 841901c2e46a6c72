#!/usr/bin/env python3
"""Edit an ibsim net file the way a technician changes cabling, keeping the
two sides of every link consistent. Used by the diff and validate
integration tests to derive faulty fabrics from a generated plan.

usage: dv-netedit.py IN OUT EDIT...   where EDIT is one of
  unlink N:P           unplug the cable at node N port P (both ends)
  link N:P M:Q         plug a new cable between N:P and M:Q
  move N:P M:Q         the cable at N:P moves its N:P end to M:Q
  swap N:P M:Q         the cables at N:P and M:Q exchange their far ends
  opt N:P KEY=VAL      set a port option (w= s= e=) on BOTH ends of the link
  rmnode N             remove node N and every cable to it
  addhost N GUID N2:P  append CA N (node GUID GUID) cabled to N2:P
  desc N TEXT          give node N the description TEXT
"""
import sys


class Net:
    def __init__(self, text):
        self.head = []          # lines before the first node record
        self.nodes = {}         # name -> dict(kind, nports, desc, pre, ports)
        self.order = []
        cur = None
        pre = []
        for line in text.splitlines():
            s = line.strip()
            if s.startswith(('Switch', 'Hca', 'Ca', 'Rt')) and '"' in s:
                kind, rest = s.split(None, 1)
                nports = int(rest.split()[0])
                name = rest.split('"')[1]
                desc = None
                if '#' in rest and rest.split('#', 1)[1].count('"') >= 2:
                    desc = rest.split('#', 1)[1].split('"')[1]
                cur = dict(kind=kind, nports=nports, desc=desc, pre=pre,
                           ports={})
                pre = []
                self.nodes[name] = cur
                self.order.append(name)
            elif s.startswith('[') and cur is not None:
                port = int(s[1:s.index(']')])
                q = s.split('"')
                peer = q[1]
                rest = q[2]
                pport = int(rest[1:rest.index(']')]) if rest.startswith('[') else 1
                opts = [t for t in rest.split() if '=' in t]
                cur['ports'][port] = [peer, pport, dict(o.split('=', 1) for o in opts)]
            elif not s:
                cur = None
            elif cur is None and not self.order:
                self.head.append(line)
            else:
                pre.append(line)   # guid base lines before the next node

    def end(self, spec):
        n, p = spec.rsplit(':', 1)
        if n not in self.nodes:
            sys.exit('dv-netedit: no node %r' % n)
        return n, int(p)

    def at(self, n, p):
        return self.nodes[n]['ports'].get(p)

    def unlink(self, n, p):
        e = self.at(n, p)
        if not e:
            sys.exit('dv-netedit: nothing plugged in %s:%d' % (n, p))
        del self.nodes[n]['ports'][p]
        del self.nodes[e[0]]['ports'][e[1]]
        return e

    def link(self, n, p, m, q, opts=None):
        for a, b in ((n, p), (m, q)):
            if self.at(a, b):
                sys.exit('dv-netedit: %s:%d is in use' % (a, b))
        self.nodes[n]['ports'][p] = [m, q, dict(opts or {})]
        self.nodes[m]['ports'][q] = [n, p, dict(opts or {})]

    def write(self):
        out = list(self.head)
        if out and out[-1].strip():
            out.append('')
        for name in self.order:
            nd = self.nodes[name]
            out.extend(nd['pre'])
            hdr = '%s\t%d "%s"' % (nd['kind'], nd['nports'], name)
            if nd['desc'] is not None:
                hdr += '\t# "%s"' % nd['desc']
            out.append(hdr)
            for p in sorted(nd['ports']):
                peer, pp, opts = nd['ports'][p]
                line = '[%d]\t"%s"[%d]' % (p, peer, pp)
                for k in sorted(opts):
                    line += '\t%s=%s' % (k, opts[k])
                out.append(line)
            out.append('')
        return '\n'.join(out) + '\n'


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    net = Net(open(argv[1]).read())
    args = argv[3:]
    while args:
        op = args.pop(0)
        if op == 'unlink':
            net.unlink(*net.end(args.pop(0)))
        elif op == 'link':
            a, b = net.end(args.pop(0)), net.end(args.pop(0))
            net.link(a[0], a[1], b[0], b[1])
        elif op == 'move':
            a, b = net.end(args.pop(0)), net.end(args.pop(0))
            peer, pp, opts = net.unlink(*a)
            net.link(b[0], b[1], peer, pp, opts)
        elif op == 'swap':
            a, b = net.end(args.pop(0)), net.end(args.pop(0))
            ea, eb = net.unlink(*a), net.unlink(*b)
            net.link(a[0], a[1], eb[0], eb[1], eb[2])
            net.link(b[0], b[1], ea[0], ea[1], ea[2])
        elif op == 'opt':
            a = net.end(args.pop(0))
            k, v = args.pop(0).split('=', 1)
            e = net.at(*a)
            if not e:
                sys.exit('dv-netedit: nothing plugged in %s:%d' % a)
            e[2][k] = v
            net.at(e[0], e[1])[2][k] = v
        elif op == 'rmnode':
            n = args.pop(0)
            for p in list(net.nodes[n]['ports']):
                net.unlink(n, p)
            net.order.remove(n)
            del net.nodes[n]
        elif op == 'addhost':
            n, guid, b = args.pop(0), args.pop(0), net.end(args.pop(0))
            net.nodes[n] = dict(kind='Hca', nports=1, desc=None,
                                pre=['caguid=%s' % guid], ports={})
            net.order.append(n)
            net.link(n, 1, b[0], b[1])
        elif op == 'desc':
            n = args.pop(0)
            net.end(n + ':0')
            net.nodes[n]['desc'] = args.pop(0)
        else:
            sys.exit('dv-netedit: unknown edit %r' % op)
    open(argv[2], 'w').write(net.write())


if __name__ == '__main__':
    main(sys.argv)
