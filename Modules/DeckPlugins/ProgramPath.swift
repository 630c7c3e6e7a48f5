import Glibc

/// Finds the program a manifest's `exec` names, as PLUGINS.md §1 says:
/// relative to the plugin's folder, or an absolute path.
///
/// A name without a `/` (`python3`) is looked for in the folder first and
/// then on `PATH`, as a shell would, so `exec: [python3, hold.py]` works
/// without hard-coding where python lives. The result is always absolute:
/// the plugin starts with its folder as working directory, where a relative
/// program path would mean something else.
enum ProgramPath {
    struct Problem: Error {
        var sentence: String
    }

    static func resolve(_ program: String, folder: String, searchPath: String?) -> Result<String, Problem> {
        let path: String
        if program.hasPrefix("/") {
            path = program
        } else if program.contains("/") {
            path = join(folder, program.hasPrefix("./") ? String(program.dropFirst(2)) : program)
        } else {
            let inFolder = join(folder, program)
            if exists(inFolder) {
                path = inFolder
            } else if let found = search(program, in: searchPath) {
                return .success(found)
            } else {
                return .failure(Problem(sentence: "exec: '\(program)' is neither in the plugin's folder (\(folder)) nor on PATH"))
            }
        }
        return check(path)
    }

    /// The path if it is a program this user may run; otherwise why not.
    private static func check(_ path: String) -> Result<String, Problem> {
        var info = stat()
        guard stat(path, &info) == 0 else { return .failure(Problem(sentence: "exec: \(path) \(unreachable(path, errno))")) }
        if (info.st_mode & S_IFMT) == S_IFDIR {
            return .failure(Problem(sentence: "exec: \(path) is a folder, not a program"))
        }
        guard access(path, X_OK) == 0 else {
            return .failure(Problem(sentence: "exec: \(path) is not executable; make it so with chmod +x"))
        }
        return .success(path)
    }

    /// Why `stat` failed, in words: "does not exist" was said of a link
    /// loop and of a folder the user may not enter too.
    private static func unreachable(_ path: String, _ code: Int32) -> String {
        var link = stat()
        switch code {
        case ENOENT where lstat(path, &link) == 0:
            return "is a symbolic link to something that does not exist"
        case ENOENT:
            return "does not exist"
        case ELOOP:
            return "is a loop of symbolic links"
        case EACCES:
            return "cannot be reached: a folder on its way may not be searched by this user (\(String(cString: strerror(code))))"
        case ENOTDIR:
            return "does not exist: a part of its path is a file, not a folder"
        default:
            return "cannot be read (\(String(cString: strerror(code))))"
        }
    }

    private static func exists(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0
    }

    private static func search(_ name: String, in searchPath: String?) -> String? {
        for folder in (searchPath ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":") where folder.hasPrefix("/") {
            let candidate = join(String(folder), name)
            var info = stat()
            if stat(candidate, &info) == 0, (info.st_mode & S_IFMT) != S_IFDIR, access(candidate, X_OK) == 0 {
                return candidate
            }
        }
        return nil
    }
}

/// `path` made absolute against the current directory (unchanged when it
/// already is); `.` and `..` are left for the system to resolve.
func absolutePath(_ path: String) -> String {
    if path.hasPrefix("/") { return path }
    guard let pointer = getcwd(nil, 0) else { return path }
    let cwd = String(cString: pointer)
    free(pointer)
    if path.isEmpty || path == "." { return cwd }
    return join(cwd, path.hasPrefix("./") ? String(path.dropFirst(2)) : path)
}
