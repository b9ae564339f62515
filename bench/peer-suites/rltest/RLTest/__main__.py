"""`python3 -m RLTest [options]`: run the test*.py files of the current directory.

Only the options memtier_benchmark's tests/run_tests.sh passes are understood; the others
that RLTest has are accepted by argparse's prefix rules or rejected with a usage error, so
a surprise shows instead of being ignored.
"""
import argparse
import importlib
import inspect
import linecache
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import traceback
import unittest

import redis

SLOTS = 16384
EXIT_PASS, EXIT_FAIL, EXIT_SKIP = 0, 1, 77


def parse_args(argv):
    p = argparse.ArgumentParser(prog='RLTest (stand-in)', allow_abbrev=False)
    p.add_argument('--test', '-t', action='append', default=[],
                   help='module[.py][:function]; may repeat')
    p.add_argument('--env', '-e', default='oss', choices=['oss', 'oss-cluster'])
    p.add_argument('--shards-count', type=int, default=1)
    p.add_argument('--oss-redis-path', default='redis-server')
    p.add_argument('--enable-debug-command', action='store_true')
    p.add_argument('--cluster_node_timeout', type=int, default=5000)
    p.add_argument('--cluster-start-timeout', type=int, default=60)
    p.add_argument('--tls', action='store_true')
    p.add_argument('--tls-cert-file')
    p.add_argument('--tls-key-file')
    p.add_argument('--tls-ca-cert-file')
    p.add_argument('--log-level', default='notice')
    p.add_argument('--verbose', '-v', action='count', default=0)
    p.add_argument('--debug-print', action='store_true')
    p.add_argument('-s', '--no-output-catch', action='store_true')
    p.add_argument('--test-timeout', type=int,
                   default=int(os.environ.get('TEST_TIMEOUT', '300')))
    a = p.parse_args(argv)
    if a.env == 'oss-cluster' and a.shards_count < 1:
        p.error('--shards-count must be at least 1')
    if a.tls and not (a.tls_cert_file and a.tls_key_file and a.tls_ca_cert_file):
        p.error('--tls needs --tls-cert-file, --tls-key-file and --tls-ca-cert-file')
    return a


def port_free(port):
    s = socket.socket()
    try:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(('127.0.0.1', port))
        return True
    except OSError:
        return False
    finally:
        s.close()


def pick_ports(count, taken):
    """Free loopback ports; each also has port+10000 free (the cluster bus) and stays
    at or below 55535 so that the bus port exists."""
    ports = []
    # RLTest starts its first server on 6379; a test that loses the port on
    # the way to the benchmark (test_monitor_random_reproducible_without_randomize
    # copies its config before the port is set) relies on that default.
    if port_free(6379) and port_free(16379) and 6379 not in taken:
        ports.append(6379)
        if len(ports) == count:
            return ports
    for _ in range(2000):
        p = random.randrange(20000, 45000)
        if p in taken or p in ports:
            continue
        if port_free(p) and port_free(p + 10000):
            ports.append(p)
            if len(ports) == count:
                return ports
    raise RuntimeError('no free loopback ports found')


class Server:
    def __init__(self, opts, workdir, index, port, cluster):
        self.opts, self.port = opts, port
        self.dir = os.path.join(workdir, 'shard-%d' % index)
        os.makedirs(self.dir, exist_ok=True)
        self.log = os.path.join(self.dir, 'master-%d.log' % index)
        args = [opts.oss_redis_path, '--bind', '127.0.0.1', '--dir', self.dir,
                '--logfile', self.log, '--save', '', '--appendonly', 'no',
                '--loglevel', opts.log_level, '--daemonize', 'no']
        if opts.tls:
            args += ['--port', '0', '--tls-port', str(port),
                     '--tls-cert-file', opts.tls_cert_file,
                     '--tls-key-file', opts.tls_key_file,
                     '--tls-ca-cert-file', opts.tls_ca_cert_file]
        else:
            args += ['--port', str(port)]
        if opts.enable_debug_command:
            args += ['--enable-debug-command', 'yes']
        if cluster:
            args += ['--cluster-enabled', 'yes',
                     '--cluster-config-file', os.path.join(self.dir, 'nodes.conf'),
                     '--cluster-node-timeout', str(opts.cluster_node_timeout)]
            if opts.tls:
                args += ['--tls-cluster', 'yes', '--tls-replication', 'yes']
        self.proc = subprocess.Popen(args, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                     start_new_session=True)

    def connection(self):
        kw = {}
        if self.opts.tls:
            kw = dict(ssl=True, ssl_certfile=self.opts.tls_cert_file,
                      ssl_keyfile=self.opts.tls_key_file,
                      ssl_ca_certs=self.opts.tls_ca_cert_file, ssl_cert_reqs='required')
        return redis.Redis(host='127.0.0.1', port=self.port, socket_timeout=30, **kw)

    def wait_ready(self, seconds):
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError('redis-server on port %d exited (%s); see %s'
                                   % (self.port, self.proc.returncode, self.log))
            try:
                c = self.connection()
                c.ping()
                c.close()
                return
            except (redis.ConnectionError, redis.TimeoutError, OSError):
                time.sleep(0.05)
        raise RuntimeError('redis-server on port %d not ready after %ss' % (self.port, seconds))

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


class EnvRunner:
    """What include.py reads of RLTest's runner: the log directory and file names."""

    def __init__(self, servers):
        self.servers = servers
        self.dbDirPath = servers[0].dir

    def _getFileName(self, role, suffix):
        return os.path.basename(self.servers[0].log)[:-len('.log')] + suffix


class Env:
    def __init__(self, opts, servers, test_name):
        self.opts = opts
        self.servers = servers
        self.testName = test_name
        self.env = opts.env
        self.useTLS = opts.tls
        self.shardsCount = len(servers)
        self.assertionFailedSummary = []
        self.envRunner = EnvRunner(servers)
        self._conns = None

    # environment
    def isCluster(self):
        return 'cluster' in self.env

    def isUnixSocket(self):
        return False

    def getMasterNodesList(self):
        return [{'host': '127.0.0.1', 'port': s.port, 'unix_socket_path': None}
                for s in self.servers]

    def getOSSMasterNodesConnectionList(self):
        if self._conns is None:
            self._conns = [s.connection() for s in self.servers]
        return self._conns

    def getConnection(self, shardId=1):
        return self.getOSSMasterNodesConnectionList()[shardId - 1]

    def cmd(self, *query):
        return self.getConnection().execute_command(*query)

    def skip(self):
        raise unittest.SkipTest()

    def skipOnCluster(self):
        if self.isCluster():
            self.skip()

    def debugPrint(self, msg, force=False):
        if force or self.opts.debug_print:
            print('\tdebug:\t' + str(msg), flush=True)

    # assertions: record and go on, as RLTest does
    def _assertion(self, text, ok, depth, message=None):
        if ok:
            return
        # report the first frame outside this file: the test's (or its helper's) line
        frame = inspect.currentframe()
        while frame is not None and frame.f_code.co_filename == __file__:
            frame = frame.f_back
        where = '?'
        if frame:
            source = linecache.getline(frame.f_code.co_filename, frame.f_lineno).strip()
            where = '%s:%d `%s`' % (os.path.basename(frame.f_code.co_filename),
                                    frame.f_lineno, source[:200])
        line = 'ASSERT FAILED %s at %s' % (text, where)
        if message:
            line += ' [%s]' % message
        print('\t' + line, flush=True)
        self.assertionFailedSummary.append(line)

    def getNumberOfFailedAssertion(self):
        return len(self.assertionFailedSummary)

    def assertEqual(self, first, second, depth=0, message=None):
        self._assertion('%r == %r' % (first, second), first == second, depth, message)

    def assertNotEqual(self, first, second, depth=0, message=None):
        self._assertion('%r != %r' % (first, second), first != second, depth, message)

    def assertTrue(self, val, depth=0, message=None):
        self._assertion('bool(%.200r) is True' % (val,), bool(val), depth, message)

    def assertFalse(self, val, depth=0, message=None):
        self._assertion('bool(%.200r) is False' % (val,), not bool(val), depth, message)

    def assertGreater(self, a, b, depth=0, message=None):
        self._assertion('%r > %r' % (a, b), a > b, depth, message)

    def assertGreaterEqual(self, a, b, depth=0, message=None):
        self._assertion('%r >= %r' % (a, b), a >= b, depth, message)

    def assertLess(self, a, b, depth=0, message=None):
        self._assertion('%r < %r' % (a, b), a < b, depth, message)

    def assertLessEqual(self, a, b, depth=0, message=None):
        self._assertion('%r <= %r' % (a, b), a <= b, depth, message)

    def assertAlmostEqual(self, a, b, delta, depth=0, message=None):
        self._assertion('%r almost equals %r (delta %r)' % (a, b, delta),
                        abs(a - b) <= delta, depth, message)

    def assertContains(self, value, holder, depth=0, message=None):
        self._assertion('%r in %.200r' % (value, holder), value in holder, depth, message)


def start_servers(opts, workdir):
    cluster = opts.env == 'oss-cluster'
    count = opts.shards_count if cluster else 1
    servers = []
    try:
        for i, port in enumerate(pick_ports(count, set()), start=1):
            servers.append(Server(opts, workdir, i, port, cluster))
        for s in servers:
            s.wait_ready(30)
        if cluster:
            form_cluster(opts, servers)
    except Exception:
        for s in servers:
            s.stop()
        raise
    return servers


def form_cluster(opts, servers):
    conns = [s.connection() for s in servers]
    n = len(servers)
    for i, c in enumerate(conns):
        first, last = i * SLOTS // n, (i + 1) * SLOTS // n - 1
        c.execute_command('CLUSTER', 'ADDSLOTSRANGE', first, last)
    for s in servers[1:]:
        conns[0].execute_command('CLUSTER', 'MEET', '127.0.0.1', s.port)
    deadline = time.monotonic() + opts.cluster_start_timeout
    while time.monotonic() < deadline:
        ready = True
        for c in conns:
            info = c.execute_command('CLUSTER', 'INFO')
            if isinstance(info, bytes):
                info = info.decode()
            fields = dict(l.split(':', 1) for l in info.split('\r\n') if ':' in l)
            if (fields.get('cluster_state') != 'ok'
                    or fields.get('cluster_known_nodes') != str(n)
                    or fields.get('cluster_slots_ok') != str(SLOTS)):
                ready = False
                break
        if ready:
            for c in conns:
                c.close()
            return
        time.sleep(0.1)
    raise RuntimeError('cluster not ok after %ss' % opts.cluster_start_timeout)


def discover(selected):
    """[(module_name, function_name)] in file order, then definition order."""
    wanted = {}
    for t in selected:
        mod, _, fn = t.partition(':')
        mod = mod[:-3] if mod.endswith('.py') else mod
        wanted.setdefault(mod, set())
        if fn:
            wanted[mod].add(fn)
    files = sorted(f for f in os.listdir('.') if f.startswith('test') and f.endswith('.py'))
    sys.path.insert(0, os.getcwd())
    found = []
    for f in files:
        mod = f[:-3]
        if wanted and mod not in wanted:
            continue
        module = importlib.import_module(mod)
        fns = [(v.__code__.co_firstlineno, k) for k, v in vars(module).items()
               if k.startswith('test') and inspect.isfunction(v) and v.__module__ == mod]
        for _, name in sorted(fns):
            if wanted.get(mod) and name not in wanted[mod]:
                continue
            found.append((mod, name))
    return found


def run_child(opts, servers, mod, name):
    """In the forked child: run one test, exit with its outcome."""
    os.setpgid(0, 0)
    env = Env(opts, servers, '%s:%s' % (mod, name))
    code = EXIT_PASS
    try:
        fn = getattr(sys.modules[mod], name)
        if inspect.signature(fn).parameters:
            fn(env)
        else:
            fn()
        if env.assertionFailedSummary:
            code = EXIT_FAIL
    except unittest.SkipTest:
        code = EXIT_SKIP
    except BaseException:
        print('\tEXCEPTION ' + traceback.format_exc().replace('\n', '\n\t'), flush=True)
        code = EXIT_FAIL
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(code)


def print_benchmark_stderr(since):
    """After a failure: the first lines of each mb.stderr the test's benchmark runs wrote (under
    TMPDIR, where the tests make their result folders), for the benchmark's own words.
    A diagnostic of this stand-in; RLTest prints only what the test prints."""
    found = []
    for root, _, files in os.walk(tempfile.gettempdir()):
        if 'mb.stderr' in files:
            path = os.path.join(root, 'mb.stderr')
            try:
                if os.path.getmtime(path) >= since:
                    found.append(path)
            except OSError:
                pass
    for path in sorted(found, key=os.path.getmtime)[:3]:
        with open(path, errors='replace') as f:
            lines = [l.rstrip() for l in f if l.strip() and '\r' not in l][:3]
        for l in lines:
            print('\tSTDERR %s' % l[:300], flush=True)


def run_one(opts, mod, name):
    workdir = tempfile.mkdtemp(prefix='rltest-')
    t0 = time.monotonic()
    try:
        servers = start_servers(opts, workdir)
    except Exception as e:
        return 'FAIL', 'environment: %s' % e, time.monotonic() - t0
    try:
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:
            run_child(opts, servers, mod, name)
        try:
            os.setpgid(pid, pid)
        except OSError:
            pass  # the child already did it (or exited)
        deadline = t0 + opts.test_timeout
        status = None
        while status is None:
            done, st = os.waitpid(pid, os.WNOHANG)
            if done:
                status = st
            elif time.monotonic() > deadline:
                os.killpg(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
                status = 'timeout'
            else:
                time.sleep(0.1)
        # whatever the test left running in its group (a benchmark it started) goes too
        try:
            os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass
        if status == 'timeout':
            return 'FAIL', 'timed out after %ss' % opts.test_timeout, time.monotonic() - t0
        code = os.waitstatus_to_exitcode(status)
        outcome = {EXIT_PASS: 'PASS', EXIT_SKIP: 'SKIP'}.get(code, 'FAIL')
        if outcome == 'FAIL':
            print_benchmark_stderr(t0)
        return outcome, '' if outcome != 'FAIL' else 'exit %s' % code, time.monotonic() - t0
    finally:
        for s in servers:
            s.stop()
        shutil.rmtree(workdir, ignore_errors=True)


def main(argv):
    opts = parse_args(argv)
    tests = discover(opts.test)
    if not tests:
        print('no tests found', file=sys.stderr)
        return 1
    mode = opts.env + (' (%d shards)' % opts.shards_count if opts.env == 'oss-cluster' else '')
    mode += ', TLS' if opts.tls else ''
    print('RLTest stand-in: %d tests, %s' % (len(tests), mode), flush=True)
    counts = {'PASS': 0, 'FAIL': 0, 'SKIP': 0}
    failed = []
    for mod, name in tests:
        print('%s:%s:' % (mod, name), flush=True)
        outcome, why, secs = run_one(opts, mod, name)
        counts[outcome] += 1
        if outcome == 'FAIL':
            failed.append('%s:%s' % (mod, name))
        print('RESULT %s %s:%s (%.1fs)%s' % (outcome, mod, name, secs,
                                            ' ' + why if why else ''), flush=True)
    print('Passed: %d, Failed: %d, Skipped: %d' % (counts['PASS'], counts['FAIL'], counts['SKIP']))
    for f in failed:
        print('\tfailed: ' + f)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
