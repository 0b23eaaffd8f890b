import Foundation
internal import CCurlLoader

/// What libcurl's callbacks work with during one transfer, reached through
/// the user-data pointer (C callbacks cannot capture context). It holds the
/// receiver's three steps as closures, so that it needs no generic type.
final class CurlTransferContext {
    let maxBytes: Int64
    /// The receiver's answers: false stops the transfer.
    let onHead: (ResponseHead) -> Bool
    let onBody: (UnsafeRawBufferPointer) -> Bool
    let onProgress: (TransferProgress) -> Bool
    var parser = ResponseHeadParser()
    /// The final response's head, once its headers ended.
    var finalHead: ResponseHead?
    /// The body grew past `maxBytes` (which CURLOPT_MAXFILESIZE catches only
    /// when the length is announced).
    var tooLarge = false
    var bytes: Int64 = 0

    init(maxBytes: Int64, onHead: @escaping (ResponseHead) -> Bool, onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
         onProgress: @escaping (TransferProgress) -> Bool) {
        self.maxBytes = maxBytes
        self.onHead = onHead
        self.onBody = onBody
        self.onProgress = onProgress
    }

    /// One header line; false stops the transfer.
    func headerLine(_ line: String) -> Bool {
        guard let head = parser.take(line) else { return true }
        finalHead = head
        return onHead(head)
    }

    func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if self.bytes + Int64(bytes.count) > maxBytes {
            tooLarge = true
            return false
        }
        guard onBody(bytes) else { return false }
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
    return context.onProgress(progress) ? 0 : 1
}
