internal import CLinux
import Glibc
import Synchronization

/// The file of a listening Unix-domain socket, and the rules for making it.
///
/// - The folder holding the socket must be private: a real folder (not a
///   symbolic link), owned by this user, with no access for group or others.
///   A missing folder (and missing parents) is created with mode 0700; an
///   existing one that breaks a rule is refused, never chmod-ed behind the
///   user's back.
/// - The socket file is made mode 0600.
/// - `PATH.lock`, next to the socket, is held with `flock` for the listener's
///   life. It settles "is another host serving this path?" without a race
///   between two hosts starting at once; the kernel drops it when a host dies.
/// - A socket file already at `PATH` is probed with a connect: refused means
///   it was left by a crashed process and is replaced; accepted means a live
///   process serves it, and it is not stolen.
final class UnixSocketFile: Sendable {
    let path: String
    private let device: UInt64
    private let inode: UInt64
    /// The held lock; -1 once released (so a second `remove` closes nothing).
    let lockFD: Atomic<Int32>

    private init(path: String, device: UInt64, inode: UInt64, lockFD: Int32) {
        self.path = path
        self.device = device
        self.inode = inode
        self.lockFD = Atomic(lockFD)
    }

    /// Removes the socket file if it is still ours, and releases the lock.
    func remove() {
        let lock = lockFD.exchange(-1, ordering: .acquiringAndReleasing)
        guard lock >= 0 else { return }
        var info = stat()
        if lstat(path, &info) == 0 && UInt64(info.st_dev) == device && UInt64(info.st_ino) == inode {
            unlink(path)
        }
        Sys.close(lock)
    }

    /// Binds and listens on `path` following the rules above.
    static func bind(path: String) throws(TransportError) -> (Int32, UnixSocketFile) {
        let address = try RawSocketAddress.unix(path: path)
        try preparePrivateFolder(folder(of: path))
        let lockFD = try takeLock(socketPath: path)
        var fd: Int32 = -1
        do throws(TransportError) {
            try removeStaleSocket(at: path)
            fd = try Sys.streamSocket(family: AF_UNIX, "listening on \(path)")
            if address.withSockaddr({ Glibc.bind(fd, $0, $1) }) != 0 {
                if errno == EADDRINUSE { throw .anotherHostListening(path: path) }
                throw .lastSystemError("listen on \(path)")
            }
            // The private folder covers the moment between bind and chmod.
            if chmod(path, 0o600) != 0 { throw .lastSystemError("make \(path) private (mode 0600)") }
            if Glibc.listen(fd, SOMAXCONN) != 0 { throw .lastSystemError("listen on \(path)") }
            var info = stat()
            if lstat(path, &info) != 0 { throw .lastSystemError("inspect \(path)") }
            let file = UnixSocketFile(path: path, device: UInt64(info.st_dev), inode: UInt64(info.st_ino), lockFD: lockFD)
            return (fd, file)
        } catch {
            if fd >= 0 { Sys.close(fd) }
            Sys.close(lockFD)
            throw error
        }
    }

    /// The folder part of `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        let folder = String(path[..<slash])
        return folder.isEmpty ? "/" : folder
    }

    /// Creates `folder` 0700 when missing; checks the privacy rules.
    static func preparePrivateFolder(_ folder: String) throws(TransportError) {
        var info = stat()
        if lstat(folder, &info) != 0 {
            guard errno == ENOENT else { throw .lastSystemError("inspect the socket folder \(folder)") }
            try createPrivateFolder(folder)
            if lstat(folder, &info) != 0 { throw .lastSystemError("inspect the socket folder \(folder)") }
        }
        let type = info.st_mode & S_IFMT
        if type == S_IFLNK {
            throw .insecureFolder(path: folder, reason: "it is a symbolic link; give the real folder's path instead")
        }
        if type != S_IFDIR {
            throw .insecureFolder(path: folder, reason: "it is not a folder")
        }
        if info.st_uid != geteuid() {
            throw .insecureFolder(path: folder, reason: "it belongs to user \(info.st_uid), not to this user (\(geteuid())); use a folder of your own")
        }
        let mode = info.st_mode & 0o777
        if mode & 0o077 != 0 {
            throw .insecureFolder(path: folder, reason: "group or others can access it (mode 0\(String(mode, radix: 8))); run `chmod 700 \(folder)` or use a private folder")
        }
    }

    /// `mkdir -p` where every folder this call creates gets mode 0700
    /// (set explicitly: the umask could have taken bits away or left some).
    private static func createPrivateFolder(_ folder: String) throws(TransportError) {
        let parent = Self.folder(of: folder)
        if parent != folder && parent != "." && parent != "/" {
            var info = stat()
            if lstat(parent, &info) != 0 {
                guard errno == ENOENT else { throw .lastSystemError("inspect the folder \(parent)") }
                try createPrivateFolder(parent)
            }
        }
        if mkdir(folder, 0o700) != 0 {
            if errno == EEXIST { return }
            throw .lastSystemError("create the socket folder \(folder)")
        }
        if chmod(folder, 0o700) != 0 { throw .lastSystemError("make the socket folder \(folder) private") }
    }

    private static func takeLock(socketPath: String) throws(TransportError) -> Int32 {
        let lockPath = socketPath + ".lock"
        let fd = Sys.retrying { open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600) }
        if fd < 0 { throw .lastSystemError("open the lock file \(lockPath)") }
        if Sys.retrying({ flock(fd, LOCK_EX | LOCK_NB) }) != 0 {
            let code = errno
            Sys.close(fd)
            if code == EWOULDBLOCK { throw .anotherHostListening(path: socketPath) }
            throw .system(operation: "lock \(lockPath)", errno: code)
        }
        return fd
    }

    /// Replaces a socket file nobody serves; refuses to touch a live one or a non-socket.
    private static func removeStaleSocket(at path: String) throws(TransportError) {
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return }
            throw .lastSystemError("inspect \(path)")
        }
        guard info.st_mode & S_IFMT == S_IFSOCK else { throw .notASocket(path: path) }
        let probe = try Sys.streamSocket(family: AF_UNIX, "checking \(path)")
        defer { Sys.close(probe) }
        let address = try RawSocketAddress.unix(path: path)
        let result = Sys.retrying { address.withSockaddr { connect(probe, $0, $1) } }
        let code = errno
        // Non-blocking: EAGAIN means a live listener whose queue is full.
        if result == 0 || code == EAGAIN || code == EINPROGRESS { throw .anotherHostListening(path: path) }
        switch code {
        case ECONNREFUSED:
            if unlink(path) != 0 && errno != ENOENT { throw .lastSystemError("remove the stale socket \(path)") }
        case ENOENT:
            return
        default:
            throw .system(operation: "check whether a host is listening on \(path)", errno: code)
        }
    }
}
