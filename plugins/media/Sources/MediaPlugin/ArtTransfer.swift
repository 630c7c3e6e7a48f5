internal import CCurl

/// One http(s) fetch of ``ArtFetchLoop``: a libcurl easy handle with the
/// bounds set, the body gathered up to the size bound, and its outcome as
/// the image or a sentence a user can act on.
final class ArtTransfer {
    let url: String
    let handle: UnsafeMutableRawPointer
    private let limits: ArtFetcher.Limits
    private var body: [UInt8] = []
    private var overBound = false
    private let errorText = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE))
    /// Why the handle could not be set up (an option libcurl refused); the transfer is then not started.
    private(set) var setupFailure: MediaError?

    init(url: String, limits: ArtFetcher.Limits) throws(MediaError) {
        guard let handle = curl_easy_init() else {
            errorText.deallocate()
            throw MediaError("fetching art at \(ArtSource.shown(url)) could not start (curl_easy_init failed)")
        }
        self.url = url
        self.handle = handle
        self.limits = limits
        errorText[0] = 0
        let context = Unmanaged.passUnretained(self).toOpaque()
        let write: deck_curl_write_callback = { data, size, count, context in
            let transfer = Unmanaged<ArtTransfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.take(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        let settings: [CURLcode] = [
            deck_curl_set_pointer(handle, CURLOPT_URL, url),
            deck_curl_set_pointer(handle, CURLOPT_PROTOCOLS_STR, "http,https"),
            deck_curl_set_pointer(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https"),
            deck_curl_set_long(handle, CURLOPT_FOLLOWLOCATION, 1),
            deck_curl_set_long(handle, CURLOPT_MAXREDIRS, limits.redirects),
            deck_curl_set_long(handle, CURLOPT_TIMEOUT_MS, limits.deadlineMilliseconds),
            deck_curl_set_offset(handle, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(limits.maximumBytes)),
            // The defaults, said out loud: the peer's certificate chains to the system's CA store and names the host.
            deck_curl_set_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
            deck_curl_set_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
            // A threaded program: no SIGALRM for name lookups' timeouts.
            deck_curl_set_long(handle, CURLOPT_NOSIGNAL, 1),
            // A cleanup during a name lookup leaves the resolver thread to end alone instead of
            // joining it: a hung lookup would otherwise hold up a cancel and the plugin's shutdown.
            deck_curl_set_long(handle, CURLOPT_QUICK_EXIT, 1),
            deck_curl_set_pointer(handle, CURLOPT_USERAGENT, "deck-plugin-media"),
            deck_curl_set_pointer(handle, CURLOPT_ERRORBUFFER, errorText),
            deck_curl_set_write(handle, write),
            deck_curl_set_pointer(handle, CURLOPT_WRITEDATA, context),
        ]
        // Kept rather than thrown: self is whole by now, and deinit is what cleans up.
        if let failed = settings.first(where: { $0 != CURLE_OK }) {
            setupFailure = MediaError("fetching art at \(ArtSource.shown(url)) could not start: \(String(cString: curl_easy_strerror(failed)))")
        }
    }

    deinit {
        curl_easy_cleanup(handle)
        errorText.deallocate()
    }

    /// Keeps a piece of the body; false (stop the transfer) once it would pass the bound.
    private func take(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard body.count + bytes.count <= limits.maximumBytes else {
            overBound = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    /// The image, or why there is none, once libcurl says the transfer ended with `code`.
    func outcome(_ code: CURLcode) -> Result<[UInt8], MediaError> {
        let shown = ArtSource.shown(url)
        let bound = "the \(limits.maximumBytes / 1024) KiB a button image may be"
        if overBound {
            return .failure(MediaError("art at \(shown) is over \(bound); stopped reading at the bound"))
        }
        guard code == CURLE_OK else { return .failure(MediaError(failure(code, bound: bound))) }
        var status = 0
        _ = deck_curl_get_long(handle, CURLINFO_RESPONSE_CODE, &status)
        guard (200..<300).contains(status) else {
            return .failure(MediaError("art at \(shown) was not served: the server answered HTTP \(status)"))
        }
        guard AlbumArt.isImage(body) else {
            var type: UnsafePointer<CChar>?
            _ = deck_curl_get_string(handle, CURLINFO_CONTENT_TYPE, &type)
            let said = type.map { " (the server said \(String(cString: $0).prefix(80)))" } ?? ""
            return .failure(MediaError("art at \(shown) is not a PNG, JPEG or SVG image\(said)"))
        }
        return .success(body)
    }

    private func failure(_ code: CURLcode, bound: String) -> String {
        let shown = ArtSource.shown(url)
        let detail = errorText[0] != 0 ? String(cString: errorText) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            let seconds = limits.deadlineMilliseconds % 1000 == 0 ? "\(limits.deadlineMilliseconds / 1000)"
                : "\(Double(limits.deadlineMilliseconds) / 1000)"
            return "fetching art at \(shown) took longer than \(seconds) s; stopped"
        case CURLE_TOO_MANY_REDIRECTS:
            return "art at \(shown) redirects more than \(limits.redirects) times; not followed further"
        case CURLE_FILESIZE_EXCEEDED:
            return "art at \(shown) is over \(bound) (its Content-Length says so); not read"
        case CURLE_UNSUPPORTED_PROTOCOL:
            return "art at \(shown) redirects to a URL that is not http or https (\(detail))"
        case CURLE_PEER_FAILED_VERIFICATION:
            return "art at \(shown) was refused: the server's certificate is not trusted by the system's CA store (\(detail))"
        default:
            return "fetching art at \(shown) failed: \(detail) (curl error \(code.rawValue))"
        }
    }
}
