import Glibc

/// Where the host's certificate comes from (CLI.md: `--tls auto`, or
/// `--tls-cert FILE --tls-key FILE`).
public enum TLSSource: Sendable, Equatable {
    /// A self-signed certificate deckd makes once and keeps in this folder
    /// (`STATE/tls`): `certificate.pem`, and `key.pem` readable by the user alone.
    case automatic(folder: String)
    /// A certificate (chain) and its key in PEM files, read again on SIGHUP.
    case files(certificate: String, key: String)

    /// Renew the automatic certificate when fewer days than this are left.
    static let renewalDays = 30

    /// Loads the context, first making the automatic certificate when it is
    /// missing, unusable or near its end. `notices` are for the log (a new
    /// certificate means a new fingerprint that pinned devices must learn).
    public func load(names: @autoclosure () -> SubjectNames = .thisMachine())
        throws(TLSError) -> (context: TLSContext, notices: [String]) {
        switch self {
        case let .files(certificate, key):
            return (try TLSContext(certificateFile: certificate, keyFile: key), [])
        case let .automatic(folder):
            let certificate = folder + "/certificate.pem"
            let key = folder + "/key.pem"
            var reason = "made a self-signed certificate"
            if access(certificate, F_OK) == 0 || access(key, F_OK) == 0 {
                do {
                    let context = try TLSContext(certificateFile: certificate, keyFile: key)
                    if context.secondsLeft > Self.renewalDays * 86_400 { return (context, []) }
                    reason = "the self-signed certificate in \(folder) ends within \(Self.renewalDays) days: made a new one"
                } catch {
                    reason = "the self-signed certificate in \(folder) was unusable (\(error)): made a new one"
                }
            }
            let made = try SelfSignedCertificate.make(names: names())
            try PrivateFile.write(made.key, to: key, folder: folder)
            try PrivateFile.write(made.certificate, to: certificate, folder: folder)
            let context = try TLSContext(certificateFile: certificate, keyFile: key)
            return (context, ["\(reason) in \(folder); its SHA-256 fingerprint is \(context.fingerprint) "
                + "(devices that pinned another one must be paired again)"])
        }
    }
}

/// Writes the key and certificate files: mode 0600 in a 0700 folder, written
/// whole to a temporary name, synced, then renamed over the old file, so a
/// crash leaves the old file or the new one, never half of one.
enum PrivateFile {
    static func write(_ bytes: [UInt8], to path: String, folder: String) throws(TLSError) {
        func fail(_ what: String) -> TLSError {
            .selfSigned(folder: folder, reason: "\(what): \(String(cString: strerror(errno)))")
        }
        if mkdir(folder, 0o700) != 0 && errno != EEXIST { throw fail("cannot create the folder") }
        let temporary = path + ".tmp"
        unlink(temporary)
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw fail("cannot create \(temporary)") }
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + done, bytes.count - done) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                close(descriptor)
                throw fail("cannot write \(temporary)")
            }
            done += count
        }
        guard fsync(descriptor) == 0 else {
            close(descriptor)
            throw fail("cannot sync \(temporary)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else { throw fail("cannot rename \(temporary)") }
        let directory = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }
}
