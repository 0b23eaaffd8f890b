import Foundation
internal import CCurl

/// State shared with libcurl's callbacks during one transfer, reached through
/// the user-data pointer (C callbacks cannot capture context).
final class CurlTransferContext {
    let receiver: TransferReceiver
    let maxBytes: Int64
    /// The response whose headers are arriving (each redirect starts anew).
    var head = ResponseHead()
    var hasLocation = false
    /// The final response's head, once its headers ended.
    var finalHead: ResponseHead?
    var stopped = false
    var tooLarge = false
    var bodyError: CacheError?
    var bytes: Int64 = 0

    init(receiver: TransferReceiver, maxBytes: Int64) {
        self.receiver = receiver
        self.maxBytes = maxBytes
    }

    /// One header line; false stops the transfer.
    func headerLine(_ line: String) -> Bool {
        if line.hasPrefix("HTTP/") {
            head = ResponseHead()
            hasLocation = false
            let parts = line.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: " ", maxSplits: 2)
            head.status = parts.count > 1 ? Int(parts[1]) ?? 0 : 0
            head.reason = parts.count > 2 ? String(parts[2]) : ""
            return true
        }
        let trimmed = line.trimmingCharacters(in: CharacterSet(charactersIn: "\r\n"))
        if trimmed.isEmpty { return endOfHeaders() }
        guard let colon = trimmed.firstIndex(of: ":") else { return true }
        let name = trimmed[..<colon].lowercased()
        let value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        switch name {
        case "etag": head.validators.etag = value
        case "last-modified": head.validators.lastModified = value
        case "content-type": head.contentType = value
        case "content-length": head.contentLength = Int64(value)
        case "location": hasLocation = true
        default: break
        }
        return true
    }

    private func endOfHeaders() -> Bool {
        // Interim responses and redirects that libcurl follows are not final.
        if (100..<200).contains(head.status) { return true }
        if (300..<400).contains(head.status), head.status != 304, hasLocation { return true }
        finalHead = head
        if receiver.head(head) == .stop {
            stopped = true
            return false
        }
        return true
    }

    func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        // MAXFILESIZE only acts when the length is announced: count here too.
        if self.bytes + Int64(bytes.count) > maxBytes {
            tooLarge = true
            return false
        }
        do {
            try receiver.body(bytes)
        } catch {
            bodyError = error
            return false
        }
        self.bytes += Int64(bytes.count)
        return true
    }
}

let curlHeaderCallback: ccurl_data_fn = { data, size, count, user in
    guard let data, let user else { return 0 }
    let context = Unmanaged<CurlTransferContext>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    let bytes = UnsafeRawBufferPointer(start: data, count: length)
    // Header bytes from outside may be any encoding: decode leniently.
    let line = String(decoding: bytes, as: UTF8.self)
    return context.headerLine(line) ? length : 0
}

let curlWriteCallback: ccurl_data_fn = { data, size, count, user in
    guard let data, let user else { return 0 }
    let context = Unmanaged<CurlTransferContext>.fromOpaque(user).takeUnretainedValue()
    let length = size * count
    return context.bodyBytes(UnsafeRawBufferPointer(start: data, count: length)) ? length : 0
}

let curlProgressCallback: ccurl_xferinfo_fn = { user, total, now, _, _ in
    guard let user else { return 1 }
    let context = Unmanaged<CurlTransferContext>.fromOpaque(user).takeUnretainedValue()
    let progress = TransferProgress(received: Int64(now), total: total > 0 ? Int64(total) : nil)
    return context.receiver.progress(progress) ? 0 : 1
}
