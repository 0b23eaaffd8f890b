internal import CCurlLoader
import FoundationEssentials

/// What libcurl's callbacks work with during one transfer, reached through
/// the user-data pointer (C callbacks cannot capture context). It holds the
/// receiver's three steps as closures, so that it needs no generic type.
final class CurlTransferContext {
    let maxBytes: Int64
    /// The receiver's answers: false stops the transfer.
    let onHead: (ResponseHead) -> Bool
    let onBody: (UnsafeRawBufferPointer) -> Bool
    let onProgress: (TransferProgress) -> Bool
    /// Seconds without a byte before `stalled` is set and the transfer ends,
    /// and the connect timeout, which alone judges the time to connect.
    let stallTimeout: Duration
    let connectTimeout: Duration
    /// When the transfer began and when a byte last arrived.
    let started = ContinuousClock.now
    private var lastByte = ContinuousClock.now
    /// The stall rule ended the transfer.
    private(set) var stalled = false
    var parser = ResponseHeadParser()
    /// The final response's head, once its headers ended.
    var finalHead: ResponseHead?
    /// The body grew past `maxBytes` (which CURLOPT_MAXFILESIZE catches only
    /// when the length is announced).
    var tooLarge = false
    var bytes: Int64 = 0

    init(
        limits: TransferLimits,
        onHead: @escaping (ResponseHead) -> Bool,
        onBody: @escaping (UnsafeRawBufferPointer) -> Bool,
        onProgress: @escaping (TransferProgress) -> Bool
    ) {
        maxBytes = limits.maxBytes
        stallTimeout = .milliseconds(Int(min(limits.stallTimeout, 1e9) * 1000))
        connectTimeout = .milliseconds(Int(min(limits.connectTimeout, 1e9) * 1000))
        self.onHead = onHead
        self.onBody = onBody
        self.onProgress = onProgress
    }

    /// One header line; false stops the transfer.
    func headerLine(_ line: String) -> Bool {
        lastByte = ContinuousClock.now
        guard let head = parser.take(line) else { return true }
        finalHead = head
        return onHead(head)
    }

    func bodyBytes(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if self.bytes + Int64(bytes.count) > maxBytes {
            tooLarge = true
            return false
        }
        lastByte = ContinuousClock.now
        guard onBody(bytes) else { return false }
        self.bytes += Int64(bytes.count)
        return true
    }
}

extension CurlTransferContext {
    /// libcurl's progress step, about once a second while nothing arrives:
    /// the stall rule (no byte for `stallTimeout` seconds) and the
    /// receiver's say. libcurl's own low-speed check averages over windows
    /// that start when they like, which made a 1 byte/s server stall after
    /// 35 s in one run and 7 minutes in another; this one is plain elapsed
    /// time. false ends the transfer.
    func progress(_ progress: TransferProgress) -> Bool {
        // Silence counts from the last byte, or from when the connect
        // timeout would have struck: DNS, connect and TLS are its to judge.
        if ContinuousClock.now - max(lastByte, started + connectTimeout) >= stallTimeout {
            stalled = true
            return false
        }
        return onProgress(progress)
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
    return context.progress(progress) ? 0 : 1
}
