"""Replays a recorder.c log into the states a power cut may leave (README.md).

The model is conservative POSIX, not one file system's behaviour:

- A file is an identity (an inode): renames move identities between names,
  a file's content belongs to the identity, not to the name.
- Each file has durable content and the writes (write, pwrite, ftruncate,
  O_TRUNC, fallocate) made since its last fsync/fdatasync, in order.
  fsync/fdatasync of a file make its content and size durable, but NOT any
  name of it in a folder.
- Each folder has durable entries and the entry changes (create, mkdir,
  rename, unlink, rmdir) made since its last fsync, in order. fsync of a
  folder makes all of its entry changes durable (not its own name in its parent).
- syncfs / sync make everything durable.

A crash at operation k (ops 0..k-1 happened, op k had started) yields:

- ``durable``: only what was made durable;
- ``full``: everything up to k, as a kill -9 leaves it (the page cache survives);
- ``random``: each folder keeps a random prefix of its pending entry changes,
  each file a random prefix of its pending writes, the last kept write
  possibly torn at a random byte (its tail keeping the old bytes, or zeros when
  it was past the end: the size reached the disk before the data).

``broken=`` gives deliberately wrong models for the checker's self-test
(``nosync``: fsync/fdatasync of a file do nothing; ``droplast``: a file's
flush leaves its last write pending; ``nodirsync``: a folder's fsync does
nothing, as if deckd never flushed a folder after a rename or a mkdir).

Command line: ``python3 crashmodel.py dump LOG`` lists the operations;
``python3 crashmodel.py states LOG OUT [--points N] [--per-point N]``
materialises crash states as folders under OUT.
"""
import hashlib
import os
import random
import struct
import sys
from dataclasses import dataclass, field

OP_OPEN, OP_WRITE, OP_PWRITE, OP_FTRUNCATE, OP_FALLOCATE = 1, 2, 3, 5, 6
OP_FSYNC, OP_FDATASYNC, OP_SYNCFS, OP_RENAME, OP_UNLINK = 7, 8, 9, 10, 11
OP_MKDIR, OP_CLOSE, OP_RMDIR, OP_TRUNCATE, OP_SYNC, OP_START = 12, 13, 14, 15, 16, 99
OP_NAMES = {OP_OPEN: "open", OP_WRITE: "write", OP_PWRITE: "pwrite", OP_FTRUNCATE: "ftruncate",
            OP_FALLOCATE: "fallocate", OP_FSYNC: "fsync", OP_FDATASYNC: "fdatasync", OP_SYNCFS: "syncfs",
            OP_RENAME: "rename", OP_UNLINK: "unlink", OP_MKDIR: "mkdir", OP_CLOSE: "close", OP_RMDIR: "rmdir",
            OP_TRUNCATE: "truncate", OP_SYNC: "sync", OP_START: "start"}
FLUSHES = (OP_FSYNC, OP_FDATASYNC, OP_SYNCFS, OP_SYNC)

HEADER = struct.Struct("<IIIIQQiiqqqqIIQ")
MAGIC = 0x31524B44

O_WRONLY, O_RDWR, O_CREAT, O_TRUNC = 0o1, 0o2, 0o100, 0o1000
RENAME_NOREPLACE, RENAME_EXCHANGE = 1, 2
FALLOC_FL_KEEP_SIZE, FALLOC_FL_PUNCH_HOLE, FALLOC_FL_ZERO_RANGE = 1, 2, 0x10


@dataclass
class Op:
    index: int
    op: int
    pid: int
    tid: int
    t_start: int
    t_end: int
    fd: int
    aux: int
    flags: int
    mode: int
    offset: int
    result: int
    path: str
    path2: str
    data: bytes
    length: int  # bytes written (or fallocate's length)

    @property
    def name(self):
        return OP_NAMES.get(self.op, str(self.op))

    @property
    def is_flush(self):
        return self.op in FLUSHES

    def describe(self, root=""):
        def rel(p):
            return p[len(root):].lstrip("/") or "." if root and p.startswith(root) else p
        s = f"#{self.index} {self.name}"
        if self.op == OP_OPEN:
            s += f" {rel(self.path)} flags={oct(self.flags)} -> fd {self.fd}{' (folder)' if self.aux else ''}"
        elif self.op in (OP_WRITE, OP_PWRITE):
            where = "append" if self.offset == -2 else f"@{self.offset}"
            kind = " zeros" if self.data and not self.data.strip(b"\0") else ""
            s += f" fd {self.fd} {rel(self.path)} {self.length} bytes{kind} {where}"
        elif self.op in (OP_FTRUNCATE, OP_TRUNCATE):
            s += f" {rel(self.path)} to {self.offset}"
        elif self.op == OP_FALLOCATE:
            s += f" {rel(self.path)} mode={self.flags} {self.offset}+{self.length}"
        elif self.op in (OP_FSYNC, OP_FDATASYNC, OP_CLOSE):
            s += f" fd {self.fd} {rel(self.path)}{' (folder)' if self.aux else ''}"
        elif self.op == OP_RENAME:
            s += f" {rel(self.path)} -> {rel(self.path2)}"
        elif self.op in (OP_UNLINK, OP_RMDIR, OP_MKDIR):
            s += f" {rel(self.path)}"
        elif self.op == OP_SYNCFS:
            s += f" fd {self.fd}"
        return s + f" [tid {self.tid}, {self.t_start / 1e9:.6f}-{self.t_end / 1e9:.6f}]"


def parse_log(path, pid=None):
    """The operations of the log, and the recorded root: those of `pid`, or of
    the process that made the most (a wrapper such as `timeout` loads the
    library too, and a child the host starts inherits it)."""
    if pid is None:
        counts = {}
        for rpid, op in _scan_pids(path):
            counts[rpid] = counts.get(rpid, 0) + (op != OP_START)
        if counts:
            pid = max(counts, key=lambda p: (counts[p], -p))
    with open(path, "rb") as f:
        raw = f.read()
    ops, root, pos = [], None, 0
    while pos + HEADER.size <= len(raw):
        (magic, op, rpid, tid, t0, t1, fd, aux, flags, mode, offset, result, len1, len2,
         datalen) = HEADER.unpack_from(raw, pos)
        if magic != MAGIC:
            raise ValueError(f"bad record at byte {pos} of {path}")
        pos += HEADER.size
        p1 = raw[pos:pos + len1].decode("utf-8", "surrogateescape"); pos += len1
        p2 = raw[pos:pos + len2].decode("utf-8", "surrogateescape"); pos += len2
        has_data = op in (OP_WRITE, OP_PWRITE)
        data = raw[pos:pos + datalen] if has_data else b""
        if has_data:
            pos += datalen
        if op == OP_START:
            if pid is None:
                pid = rpid
            if rpid == pid:
                root = p1
            continue
        if rpid != pid:
            continue
        ops.append(Op(len(ops), op, rpid, tid, t0, t1, fd, aux, flags, mode, offset, result, p1, p2,
                      bytes(data), datalen))
    if pos != len(raw):
        raise ValueError(f"{path}: {len(raw) - pos} bytes of a torn last record")
    return root, ops


def _scan_pids(path):
    with open(path, "rb") as f:
        raw = f.read()
    pos = 0
    while pos + HEADER.size <= len(raw):
        fields = HEADER.unpack_from(raw, pos)
        op, rpid, len1, len2, datalen = fields[1], fields[2], fields[12], fields[13], fields[14]
        pos += HEADER.size + len1 + len2 + (datalen if op in (OP_WRITE, OP_PWRITE) else 0)
        yield rpid, op


# ---- the file-system model ----

def apply_file_op(buf, op):
    """Applies one pending write to a bytearray (in place)."""
    kind = op[0]
    if kind == "w":
        _, offset, data = op
        if offset > len(buf):
            buf.extend(bytes(offset - len(buf)))
        buf[offset:offset + len(data)] = data
    elif kind == "t":
        size = op[1]
        if size < len(buf):
            del buf[size:]
        else:
            buf.extend(bytes(size - len(buf)))
    elif kind == "z":  # zero a range without changing the size
        _, offset, length = op
        end = min(len(buf), offset + length)
        if offset < end:
            buf[offset:end] = bytes(end - offset)


def apply_torn_write(buf, op, cut, zero_tail):
    """The first `cut` bytes of a pending write reached the disk; the rest of
    it kept the old bytes, or, past the old end of the file, is missing
    (`zero_tail`: the size reached the disk, as zeros)."""
    _, offset, data = op
    old_len = len(buf)
    apply_file_op(buf, ("w", offset, data[:cut]))
    end = offset + len(data)
    if zero_tail and end > len(buf):
        buf.extend(bytes(end - len(buf)))
    return old_len


@dataclass
class FileObj:
    id: int
    durable: bytearray = field(default_factory=bytearray)
    cur: bytearray = field(default_factory=bytearray)
    pending: list = field(default_factory=list)

    def change(self, op):
        self.pending.append(op)
        apply_file_op(self.cur, op)

    def sync(self, broken=None):
        if broken == "nosync":
            return
        keep = []
        if broken == "droplast" and self.pending:
            keep = [self.pending[-1]]
            self.pending = self.pending[:-1]
        for op in self.pending:
            apply_file_op(self.durable, op)
        self.pending = keep


@dataclass
class DirObj:
    id: int
    durable: dict = field(default_factory=dict)
    cur: dict = field(default_factory=dict)
    pending: list = field(default_factory=list)

    def change(self, ch):
        self.pending.append(ch)
        apply_entry_change(self.cur, ch)

    def sync(self):
        self.durable = dict(self.cur)
        self.pending = []


def apply_entry_change(entries, ch):
    kind = ch[0]
    if kind == "add":
        entries[ch[1]] = ch[2]
    elif kind == "del":
        entries.pop(ch[1], None)
    elif kind == "mv":  # within one folder: atomic
        _, src, dst = ch
        if src in entries:
            entries[dst] = entries.pop(src)
    elif kind == "xchg":
        _, a, b = ch
        if a in entries and b in entries:
            entries[a], entries[b] = entries[b], entries[a]


class ModelError(Exception):
    pass


class Model:
    """The file system below the recorded root, op by op."""

    def __init__(self, root, broken=None):
        self.root = root.rstrip("/") or "/"
        self.broken = broken
        self.objs = {0: DirObj(0)}
        self.next_id = 1
        self.fds = {}
        self.applied = 0
        self.warnings = []

    def _new(self, cls):
        obj = cls(self.next_id)
        self.objs[obj.id] = obj
        self.next_id += 1
        return obj

    def _parts(self, path):
        if path == self.root:
            return []
        if not path.startswith(self.root + "/"):
            raise ModelError(f"{path} is outside the root {self.root}")
        return path[len(self.root) + 1:].split("/")

    def _dir(self, parts, path):
        d = self.objs[0]
        for name in parts:
            child = d.cur.get(name)
            if child is None:
                # Not made by the recorded process (it existed before the
                # recording): take it as a durable empty folder.
                self.warnings.append(f"{path}: folder {name} unknown, taken as durable")
                child = self._new(DirObj).id
                d.cur[name] = child
                d.durable[name] = child
            d = self.objs[child]
            if not isinstance(d, DirObj):
                raise ModelError(f"{path}: {name} is not a folder")
        return d

    def _parent(self, path):
        parts = self._parts(path)
        if not parts:
            raise ModelError(f"{path}: the root has no parent here")
        return self._dir(parts[:-1], path), parts[-1]

    def _lookup(self, path):
        parts = self._parts(path)
        if not parts:
            return self.objs[0]
        d, name = self._dir(parts[:-1], path), parts[-1]
        obj_id = d.cur.get(name)
        return None if obj_id is None else self.objs[obj_id]

    def _fd(self, op):
        obj_id = self.fds.get(op.fd)
        if obj_id is None:
            raise ModelError(f"op #{op.index} {op.name}: fd {op.fd} ({op.path}) is not open in the model")
        return self.objs[obj_id]

    def apply(self, op):
        kind = op.op
        if kind == OP_OPEN:
            if op.aux:  # a folder (opened to be flushed)
                obj = self._lookup(op.path)
                if not isinstance(obj, DirObj):
                    obj = self._dir(self._parts(op.path), op.path)
                self.fds[op.fd] = obj.id
            else:
                d, name = self._parent(op.path)
                obj_id = d.cur.get(name)
                if obj_id is None:
                    f = self._new(FileObj)
                    if not op.flags & O_CREAT:
                        self.warnings.append(f"#{op.index}: {op.path} opened without O_CREAT but unknown; taken as durable")
                        d.cur[name] = f.id
                        d.durable[name] = f.id
                    else:
                        d.change(("add", name, f.id))
                    obj_id = f.id
                elif op.flags & O_TRUNC and op.flags & (O_WRONLY | O_RDWR):
                    self.objs[obj_id].change(("t", 0))
                self.fds[op.fd] = obj_id
        elif kind in (OP_WRITE, OP_PWRITE):
            f = self._fd(op)
            offset = len(f.cur) if op.offset == -2 else op.offset
            f.change(("w", offset, op.data))
        elif kind == OP_FTRUNCATE:
            self._fd(op).change(("t", op.offset))
        elif kind == OP_TRUNCATE:
            f = self._lookup(op.path)
            if isinstance(f, FileObj):
                f.change(("t", op.offset))
        elif kind == OP_FALLOCATE:
            f = self._fd(op)
            if op.flags & (FALLOC_FL_PUNCH_HOLE | FALLOC_FL_ZERO_RANGE):
                f.change(("z", op.offset, op.length))
            if not op.flags & FALLOC_FL_KEEP_SIZE and op.offset + op.length > len(f.cur):
                f.change(("t", op.offset + op.length))
        elif kind in (OP_FSYNC, OP_FDATASYNC):
            obj = self._fd(op)
            if isinstance(obj, DirObj):
                if self.broken != "nodirsync":
                    obj.sync()
            else:
                obj.sync(self.broken)
        elif kind in (OP_SYNCFS, OP_SYNC):
            for obj in self.objs.values():
                obj.sync() if isinstance(obj, DirObj) else obj.sync(self.broken)
        elif kind == OP_RENAME:
            src_in = op.path == self.root or op.path.startswith(self.root + "/")
            dst_in = op.path2.startswith(self.root + "/")
            if not dst_in:
                if src_in:  # moved out of the root: gone from it
                    d, name = self._parent(op.path)
                    d.change(("del", name))
                return
            db, nb = self._parent(op.path2)
            if not src_in:  # moved in from outside: content unknown to the model
                self.warnings.append(f"#{op.index}: {op.path2} came from outside the root; taken as empty")
                db.change(("add", nb, self._new(FileObj).id))
                return
            da, na = self._parent(op.path)
            if op.aux & RENAME_EXCHANGE:
                if da is db:
                    da.change(("xchg", na, nb))
                else:
                    a, b = da.cur[na], db.cur[nb]
                    da.change(("add", na, b))
                    db.change(("add", nb, a))
            elif da is db:
                da.change(("mv", na, nb))
            else:
                obj_id = da.cur[na]
                da.change(("del", na))
                db.change(("add", nb, obj_id))
        elif kind in (OP_UNLINK, OP_RMDIR):
            d, name = self._parent(op.path)
            d.change(("del", name))
        elif kind == OP_MKDIR:
            d, name = self._parent(op.path)
            d.change(("add", name, self._new(DirObj).id))
        elif kind == OP_CLOSE:
            self.fds.pop(op.fd, None)
        self.applied += 1

    # ---- crash states ----

    def state(self, how, rng=None):
        """{relative path: bytes, or None for a folder} of one crash state."""
        out = {}
        files_done = {}

        def entries_of(d):
            if how == "durable":
                return d.durable
            if how == "full":
                return d.cur
            n = _pick(rng, len(d.pending))
            entries = dict(d.durable)
            for ch in d.pending[:n]:
                apply_entry_change(entries, ch)
            return entries

        def content_of(f):
            if f.id in files_done:  # a file with two names shows the same bytes under both
                return files_done[f.id]
            if how == "durable":
                data = bytes(f.durable)
            elif how == "full":
                data = bytes(f.cur)
            else:
                n = _pick(rng, len(f.pending))
                buf = bytearray(f.durable)
                for op in f.pending[:max(0, n - 1)]:
                    apply_file_op(buf, op)
                if n > 0:
                    last = f.pending[n - 1]
                    if last[0] == "w" and len(last[2]) > 0 and rng.random() < 0.5:
                        apply_torn_write(buf, last, rng.randrange(0, len(last[2])), rng.random() < 0.5)
                    else:
                        apply_file_op(buf, last)
                data = bytes(buf)
            files_done[f.id] = data
            return data

        def walk(d, prefix, seen):
            for name, obj_id in sorted(entries_of(d).items()):
                obj = self.objs[obj_id]
                rel = prefix + name
                if isinstance(obj, DirObj):
                    if obj_id in seen:
                        continue
                    out[rel] = None
                    walk(obj, rel + "/", seen | {obj_id})
                else:
                    out[rel] = content_of(obj)

        walk(self.objs[0], "", {0})
        return out

    def pending_summary(self):
        """What is not durable right now: [(its current name, how many changes are pending)]."""
        names = {0: "."}
        todo = [(0, "")]
        while todo:
            dir_id, prefix = todo.pop()
            for name, obj_id in self.objs[dir_id].cur.items():
                if obj_id not in names:
                    names[obj_id] = prefix + name
                    if isinstance(self.objs[obj_id], DirObj):
                        todo.append((obj_id, prefix + name + "/"))
        out = []
        for o in self.objs.values():
            if o.pending:
                kind = "folder " if isinstance(o, DirObj) else ""
                out.append((kind + names.get(o.id, f"(unlinked file #{o.id})"), len(o.pending)))
        return sorted(out)


def _pick(rng, n):
    """How many of n pending changes a random state keeps: none, all, or any, equally often."""
    if n == 0:
        return 0
    r = rng.random()
    if r < 0.25:
        return 0
    if r < 0.5:
        return n
    return rng.randint(0, n)


def state_digest(state):
    h = hashlib.sha256()
    for path in sorted(state):
        h.update(path.encode("utf-8", "surrogateescape") + b"\0")
        data = state[path]
        h.update(b"D" if data is None else b"F" + hashlib.sha256(data).digest())
    return h.hexdigest()


def materialise(state, dest):
    """Writes a crash state as a real folder (dest must not exist or be empty)."""
    os.makedirs(dest, exist_ok=True)
    os.chmod(dest, 0o700)
    for path in sorted(state):
        full = os.path.join(dest, path)
        if state[path] is None:
            os.makedirs(full, mode=0o700, exist_ok=True)
        else:
            os.makedirs(os.path.dirname(full), mode=0o700, exist_ok=True)
            with open(full, "wb") as f:
                f.write(state[path])
            os.chmod(full, 0o600)


def listing(state):
    """A readable listing of a state: each path, its size, and what its bytes look like."""
    lines = []
    for path in sorted(state):
        data = state[path]
        if data is None:
            lines.append(f"  {path}/")
            continue
        extra = ""
        if path.endswith(".journal"):
            extra = " " + describe_segment(data)
        elif path.endswith(".json.gz"):
            extra = " " + describe_snapshot(data)
        lines.append(f"  {path}  {len(data)} bytes{extra}")
    return "\n".join(lines) or "  (nothing: the state folder is empty)"


def describe_snapshot(data):
    import gzip
    import json
    import zlib
    try:
        doc = json.loads(gzip.decompress(data))
        return f"(generation {doc.get('generation')}, revision {doc.get('revision')}, {doc.get('reason')})"
    except (OSError, EOFError, ValueError, zlib.error) as error:
        return f"(unreadable: {type(error).__name__}: {error})"


def describe_segment(data):
    """Walks a journal segment as docs/snapshots.md describes it (no checksum check)."""
    if len(data) < 32 or data[:8] != b"DECKJRNL":
        return "(no segment header)"
    version, s1, s2, base = struct.unpack(">IIIQ", data[8:28])
    pos, records, last = 32, 0, None
    note = ""
    while pos + 24 <= len(data):
        n, gen, r1, r2, crc = struct.unpack(">IQIII", data[pos:pos + 24])
        if n == 0 and gen == 0 and r1 == 0 and r2 == 0 and crc == 0:
            break
        if (r1, r2) != (s1, s2) or pos + 24 + n > len(data):
            note = f", a torn or foreign record at {pos}"
            break
        records += 1
        last = gen
        pos += 24 + n
    zeros = len(data) - pos
    return f"(format {version}, base {base}, {records} records to {pos}, last generation {last}, {zeros} bytes after{note})"


# ---- crash points ----

@dataclass
class CrashPoint:
    k: int  # ops 0..k-1 happened; op k had started (k == len(ops): after the last op)
    t_crash: float  # op k's start: every ok received before it must survive (inf after the last op)
    t_upper: int  # op k-1's end: nothing sent after it can be on disk (0 before the first op)
    why: str


def crash_point(ops, k, why):
    t_crash = ops[k].t_start if k < len(ops) else float("inf")
    t_upper = ops[k - 1].t_end if k > 0 else 0
    return CrashPoint(k, t_crash, t_upper, why)


def op_classes(ops, root):
    """A class for each operation: its kind and what it touches, numbers and
    random parts of names left out (`fdatasync snapshots/default/N.journal
    after a record`), so that rare steps can be sampled as often as common ones."""
    import re
    last_write = {}
    out = []
    for op in ops:
        path = op.path[len(root):].lstrip("/") if op.path.startswith(root) else op.path
        path = re.sub(r"-[0-9a-f]{8,}$", "-X", path)
        path = re.sub(r"\d{4,}", "N", path)
        cls = f"{op.name} {path}"
        if op.op in (OP_WRITE, OP_PWRITE):
            last_write[op.path] = "zeros" if not op.data.strip(b"\0") else "data"
            cls += f" ({last_write[op.path]})"
        elif op.op in (OP_FSYNC, OP_FDATASYNC) and not op.aux:
            cls += f" (after {last_write.get(op.path, 'no')} write)"
        elif op.op == OP_RENAME:
            cls += " -> " + re.sub(r"\d{4,}", "N", op.path2[len(root):].lstrip("/"))
        out.append(cls)
    return out


def choose_points(ops, count, rng, root=""):
    """About `count` crash points, always the start and the end. Three
    quarters go round-robin over the classes of operations (op_classes), each
    point just before or just after an operation of the class, so that each
    kind of flush, rename, unlink and truncate gets its neighbours checked
    however rare it is; the rest are random operations."""
    n = len(ops)
    classes = op_classes(ops, root)
    by_class = {}
    for i, cls in enumerate(classes):
        # Opens and closes change nothing on disk: a crash beside one is a
        # crash beside its neighbours, which the random points cover.
        if ops[i].op not in (OP_OPEN, OP_CLOSE):
            by_class.setdefault(cls, []).append(i)
    why = {0: "before the first op", n: "after the last op"}
    chosen = [0, n]
    budget = max(count, 2)
    round_robin = budget * 3 // 4
    pools = {cls: rng.sample(where, len(where)) for cls, where in sorted(by_class.items())}
    # Flushes first in each round, the rest after; the order within each shuffled.
    order = sorted(pools, key=lambda c: (not any(ops[i].is_flush for i in by_class[c]), rng.random()))
    while len(chosen) < round_robin and any(pools.values()):
        for cls in order:
            if not pools[cls] or len(chosen) >= round_robin:
                continue
            i = pools[cls].pop()
            k = i if rng.random() < 0.5 else i + 1
            if k not in why:
                why[k] = f"just {'before' if k == i else 'after'} {cls} (#{i})"
                chosen.append(k)
    rest = [k for k in range(n + 1) if k not in why]
    for k in rng.sample(rest, min(len(rest), budget - len(chosen))):
        why[k] = f"random op ({classes[k] if k < n else 'end'})"
        chosen.append(k)
    return [crash_point(ops, k, why[k]) for k in sorted(set(chosen))]


def crash_states(root, ops, points, per_point, rng, broken=None):
    """Yields (point, how, state) for each crash point (ascending), replaying the log once.

    Each point gives the durable state, the kill -9 state, and per_point - 2 random ones."""
    model = Model(root, broken)
    at = 0
    for point in sorted(points, key=lambda p: p.k):
        while at < point.k:
            model.apply(ops[at])
            at += 1
        yield point, "durable", model.state("durable"), model
        if per_point >= 2:
            yield point, "full", model.state("full"), model
        for i in range(max(0, per_point - 2)):
            yield point, f"random{i}", model.state("random", rng), model


def context(ops, k, root, before=8, after=3):
    lines = []
    for i in range(max(0, k - before), min(len(ops), k + after)):
        mark = ">>" if i == k else "  "
        lines.append(f"{mark} {ops[i].describe(root)}")
    if k >= len(ops):
        lines.append(">> (after the last operation)")
    return "\n".join(lines)


def main(argv):
    if len(argv) >= 2 and argv[0] == "dump":
        root, ops = parse_log(argv[1])
        print(f"root {root}, {len(ops)} operations")
        for op in ops:
            print(op.describe(root))
        return 0
    if len(argv) >= 3 and argv[0] == "states":
        import argparse
        parser = argparse.ArgumentParser(prog="crashmodel.py states")
        parser.add_argument("log")
        parser.add_argument("out")
        parser.add_argument("--points", type=int, default=10)
        parser.add_argument("--per-point", type=int, default=3)
        parser.add_argument("--seed", type=int, default=1)
        parser.add_argument("--broken", choices=["nosync", "droplast", "nodirsync"])
        args = parser.parse_args(argv[1:])
        root, ops = parse_log(args.log)
        rng = random.Random(args.seed)
        points = choose_points(ops, args.points, rng, root)
        for point, how, state, _ in crash_states(root, ops, points, args.per_point, rng, args.broken):
            dest = os.path.join(args.out, f"k{point.k:06d}-{how}")
            materialise(state, dest)
            print(dest, f"({point.why})")
        return 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
