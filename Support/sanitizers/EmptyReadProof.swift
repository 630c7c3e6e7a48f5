// LeakSanitizer reports a 4 KiB leak per read here (Swift 6.3): on Linux,
// FoundationEssentials reads a file whose size is 0 into a 4 KiB malloc'd
// buffer (readBytesFromFile: /proc files report 0 yet have contents), and when
// nothing was read readDataFromFile returns Data() without freeing that buffer.
// swiftc -sanitize=address EmptyReadProof.swift && ./EmptyReadProof   (make sanitize-address runs it)
import Foundation
let path = NSTemporaryDirectory() + "/deck-empty-read-proof-\(getpid())"
precondition(FileManager.default.createFile(atPath: path, contents: nil))
defer { try? FileManager.default.removeItem(atPath: path) }
let text = try String(contentsOfFile: path, encoding: .utf8)
let data = try Data(contentsOf: URL(fileURLWithPath: path))
print("read", text.utf8.count + data.count, "bytes")
