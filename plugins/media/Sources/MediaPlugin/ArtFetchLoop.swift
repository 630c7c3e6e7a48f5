internal import CCurl
import DeckDBus
#if canImport(Glibc)
import Glibc
#endif

/// The fetch thread of ``ArtFetcher``: one libcurl multi handle, every
/// transfer on it, waiting in `curl_multi_poll` on their sockets and the
/// mailbox's pipe. Belongs to that thread alone (libcurl handles are not
/// to be shared between threads), so it is not `Sendable`.
final class ArtFetchLoop {
    private let mailbox: BusMailbox<ArtAsk>
    private let limits: ArtFetcher.Limits
    private let completion: ArtFetcher.Completion
    private let multi: UnsafeMutableRawPointer
    private var transfers: [String: ArtTransfer] = [:]

    /// libcurl's global state, set up once for the process before the first handle (curl_global_init is not safe to race).
    private static let started: Bool = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) == CURLE_OK

    init?(mailbox: BusMailbox<ArtAsk>, limits: ArtFetcher.Limits, completion: @escaping ArtFetcher.Completion) {
        guard Self.started, let multi = curl_multi_init() else { return nil }
        self.mailbox = mailbox
        self.limits = limits
        self.completion = completion
        self.multi = multi
    }

    deinit {
        for transfer in transfers.values { curl_multi_remove_handle(multi, transfer.handle) }
        transfers = [:]
        curl_multi_cleanup(multi)
    }

    func run() {
        while true {
            let (asked, stopped) = mailbox.take()
            if stopped { return }
            for ask in asked {
                switch ask {
                case .fetch(let url): if transfers[url] == nil { start(url) }
                case .cancel(let url): remove(url)
                }
            }
            var running: Int32 = 0
            _ = curl_multi_perform(multi, &running)
            finishDone()
            var wake = curl_waitfd(fd: mailbox.wakeDescriptor, events: Int16(CURL_WAIT_POLLIN), revents: 0)
            _ = curl_multi_poll(multi, &wake, 1, 1000, nil)
        }
    }

    private func start(_ url: String) {
        let transfer: ArtTransfer
        do {
            transfer = try ArtTransfer(url: url, limits: limits)
        } catch {
            completion(url, .failure(error))
            return
        }
        if let failure = transfer.setupFailure {
            completion(url, .failure(failure))
            return
        }
        guard curl_multi_add_handle(multi, transfer.handle) == CURLM_OK else {
            completion(url, .failure(MediaError("fetching art at \(ArtSource.shown(url)) could not start (curl_multi_add_handle)")))
            return
        }
        transfers[url] = transfer
    }

    private func remove(_ url: String) {
        guard let transfer = transfers.removeValue(forKey: url) else { return }
        curl_multi_remove_handle(multi, transfer.handle)
    }

    private func finishDone() {
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE,
                  let done = transfers.first(where: { $0.value.handle == message.pointee.easy_handle }) else { continue }
            let code = message.pointee.data.result
            remove(done.key)
            completion(done.key, done.value.outcome(code))
        }
    }
}
