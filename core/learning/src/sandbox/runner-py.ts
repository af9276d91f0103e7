/**
 * Source of the Python side of the sandbox (written into the job's temp directory and run by
 * `python3 -I -B`). Kept as a string so the package ships no loose files.
 *
 * Frames in both directions: `u32 total | u32 header length | header JSON | payload`, little
 * endian. Arrays travel in the payload as raw little-endian float32, C order, one after
 * another, described by `arrays: [{name, shape}]` in the header.
 */
export const RUNNER_PY = String.raw`
import sys, os, json, struct, re, traceback, types

CONFIG = json.loads(sys.argv[1])
WORKDIR = CONFIG['workdir']

def _limits():
    try:
        import resource
    except ImportError:
        return
    def setl(name, value):
        lim = getattr(resource, name, None)
        if lim is None or value is None:
            return
        try:
            soft, hard = resource.getrlimit(lim)
            v = value if hard == resource.RLIM_INFINITY else min(value, hard)
            resource.setrlimit(lim, (v, v))
        except (ValueError, OSError):
            pass
    mem = CONFIG.get('memoryBytes')
    setl('RLIMIT_AS', mem)
    setl('RLIMIT_CPU', CONFIG.get('cpuSeconds'))
    setl('RLIMIT_FSIZE', CONFIG.get('fileBytes'))
    setl('RLIMIT_NOFILE', CONFIG.get('openFiles') or 256)
    setl('RLIMIT_CORE', 0)
    setl('RLIMIT_NPROC', CONFIG.get('processes'))

def _block_network():
    import socket
    class _Blocked(socket.socket):
        def __init__(self, *a, **k):
            raise PermissionError('network access is disabled in the sandbox')
    def _no(*a, **k):
        raise PermissionError('network access is disabled in the sandbox')
    socket.socket = _Blocked
    socket.create_connection = _no
    socket.getaddrinfo = _no
    socket.socketpair = _no

_limits()
_block_network()
os.chdir(WORKDIR)
sys.path.insert(0, WORKDIR)
import numpy as np

_in = sys.stdin.buffer
_out = sys.stdout.buffer
sys.stdout = sys.stderr  # user prints must not corrupt the protocol

_modules = {}
_torch = None

class UserError(Exception):
    def __init__(self, info):
        super().__init__(info.get('message', ''))
        self.info = info

def _read_exact(n):
    buf = bytearray()
    while len(buf) < n:
        chunk = _in.read(n - len(buf))
        if not chunk:
            return None
        buf.extend(chunk)
    return bytes(buf)

def _send(header, payload=b''):
    h = json.dumps(header).encode('utf-8')
    _out.write(struct.pack('<II', 4 + len(h) + len(payload), len(h)))
    _out.write(h)
    if payload:
        _out.write(payload)
    _out.flush()

def _user_frame(tb, path):
    line = None
    for fr in traceback.extract_tb(tb):
        if os.path.abspath(fr.filename).startswith(WORKDIR + os.sep) and os.path.basename(fr.filename) != '__decisio_runner__.py':
            line = (os.path.basename(fr.filename), fr.lineno)
    return line

def _process_limit(e):
    # fork/spawn/thread start refused by RLIMIT_NPROC
    if isinstance(e, OSError) and e.errno == 11:
        return True
    return isinstance(e, RuntimeError) and "can't start new thread" in str(e)

def _error(kind, e, path=None):
    if kind == 'exception' and CONFIG.get('processes') and _process_limit(e):
        kind = 'processes'
    where = _user_frame(e.__traceback__, path)
    tb = ''.join(traceback.format_exception(type(e), e, e.__traceback__))
    tb = tb.replace(WORKDIR + os.sep, '')
    return {'kind': kind, 'type': type(e).__name__, 'message': str(e), 'file': where[0] if where else (os.path.basename(path) if path else ''), 'line': where[1] if where else 0, 'traceback': tb[-4000:]}

_TORCH_RE = re.compile(r'^\s*(import\s+torch|from\s+torch[\s.])', re.M)

def _load(file):
    global _torch
    path = os.path.abspath(os.path.join(WORKDIR, file))
    if not path.startswith(WORKDIR + os.sep) or not os.path.isfile(path):
        raise UserError({'kind': 'import', 'type': 'FileNotFoundError', 'message': 'no file ' + file, 'file': file, 'line': 0})
    with open(path, 'r', encoding='utf-8') as f:
        src = f.read()
    try:
        code = compile(src, path, 'exec')
    except SyntaxError as e:
        raise UserError({'kind': 'syntax', 'type': 'SyntaxError', 'message': e.msg or str(e), 'file': file, 'line': e.lineno or 0, 'offset': e.offset or 0})
    uses_torch = bool(_TORCH_RE.search(src))
    if uses_torch and _torch is None:
        import torch
        torch.set_num_threads(int(CONFIG.get('threads') or 1))
        _torch = torch
    name = os.path.splitext(os.path.basename(file))[0]
    mod = types.ModuleType(name)
    mod.__file__ = path
    sys.modules[name] = mod
    try:
        exec(code, mod.__dict__)
    except Exception as e:
        sys.modules.pop(name, None)
        raise UserError(_error('import', e, path))
    fns = sorted(k for k, v in mod.__dict__.items() if callable(v) and getattr(v, '__module__', None) == name)
    _modules[file] = (mod, uses_torch)
    return {'functions': fns, 'torch': uses_torch}

def _call(header, payload):
    file = header['file']
    if file not in _modules:
        _load(file)
    mod, uses_torch = _modules[file]
    fname = header['function']
    fn = getattr(mod, fname, None)
    if not callable(fn):
        raise UserError({'kind': 'missingFunction', 'type': 'AttributeError', 'message': fname, 'file': file, 'line': 0})
    data = {}
    off = 0
    for a in header['arrays']:
        shape = tuple(a['shape'])
        n = 1
        for s in shape:
            n *= s
        arr = np.frombuffer(payload, dtype='<f4', count=n, offset=off).reshape(shape).copy()
        off += 4 * n
        data[a['name']] = _torch.from_numpy(arr) if uses_torch else arr
    try:
        out = fn(data)
    except Exception as e:
        raise UserError(_error('exception', e, os.path.join(WORKDIR, file)))
    try:
        if _torch is not None and isinstance(out, _torch.Tensor):
            out = out.detach().cpu().numpy()
        out = np.asarray(out, dtype=np.float32)
    except Exception as e:
        raise UserError({'kind': 'output', 'type': type(e).__name__, 'message': str(e), 'file': file, 'line': 0})
    rows = header.get('rows')
    cols = header.get('cols')
    shape = list(out.shape)
    if rows is not None:
        if out.ndim == 1 and shape[0] == rows and (cols is None or cols == 1):
            out = out.reshape(rows, 1)
        elif out.ndim == 0 and rows == 1:
            out = out.reshape(1, 1)
        if out.ndim != 2 or out.shape[0] != rows or (cols is not None and out.shape[1] != cols):
            raise UserError({'kind': 'shape', 'type': 'ValueError', 'message': 'bad shape', 'file': file, 'line': 0, 'got': shape})
    elif out.ndim != 2:
        out = out.reshape(out.shape[0] if out.ndim else 1, -1)
    if not np.all(np.isfinite(out)):
        flat = out.reshape(out.shape[0], -1) if out.ndim >= 1 and out.shape[0] > 0 else out.reshape(1, -1)
        bad = np.nonzero(~np.all(np.isfinite(flat), axis=1))[0]
        raise UserError({'kind': 'nan', 'type': 'ValueError', 'message': 'non-finite output', 'file': file, 'line': 0,
                         'rows': [int(i) for i in bad[:20]], 'count': int(bad.size), 'total': int(flat.shape[0]),
                         'values': [str(v) for v in flat[bad[:20], 0]] if bad.size else []})
    out = np.ascontiguousarray(out, dtype='<f4')
    return {'ok': True, 'shape': list(out.shape)}, out.tobytes()

def _others():
    return [int(n) for n in os.listdir('/proc') if n.isdigit() and int(n) not in (1, 2)]

def _reap():
    # Under bwrap the runner is pid 2 of its own pid namespace (1 is bwrap's init): whatever
    # else runs there was started by user code and must not outlive the call. Killed, then
    # waited for (own children here, orphans by the init) before the reply goes out.
    if not CONFIG.get('reap') or os.getpid() != 2:
        return
    import signal, time
    others = _others()
    if not others:
        return
    for pid in others:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    deadline = time.monotonic() + 2
    while time.monotonic() < deadline:
        try:
            while os.waitpid(-1, os.WNOHANG)[0] > 0:
                pass
        except ChildProcessError:
            pass
        if not _others():
            return
        time.sleep(0.005)

def main():
    _send({'ok': True, 'ready': True, 'python': sys.version.split()[0], 'numpy': np.__version__})
    while True:
        head = _read_exact(4)
        if head is None:
            return
        (n,) = struct.unpack('<I', head)
        frame = _read_exact(n)
        if frame is None:
            return
        (hl,) = struct.unpack_from('<I', frame, 0)
        header = json.loads(frame[4:4 + hl].decode('utf-8'))
        payload = frame[4 + hl:]
        try:
            op = header.get('op')
            if op == 'load':
                reply = (dict(ok=True, **_load(header['file'])), b'')
            elif op == 'call':
                reply = _call(header, payload)
            elif op == 'ping':
                reply = ({'ok': True}, b'')
            elif op == 'exit':
                return
            else:
                reply = ({'ok': False, 'error': {'kind': 'protocol', 'message': 'unknown op'}}, b'')
        except UserError as e:
            reply = ({'ok': False, 'error': e.info}, b'')
        except MemoryError as e:
            reply = ({'ok': False, 'error': {'kind': 'exception', 'type': 'MemoryError', 'message': 'out of memory', 'file': '', 'line': 0}}, b'')
        _reap()
        _send(*reply)

main()
`;
