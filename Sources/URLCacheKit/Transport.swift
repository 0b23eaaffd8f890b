import Foundation

/// One conditional GET.
public struct TransferRequest: Sendable {
    public var url: URL
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    public var limits: TransferLimits

    public init(url: URL, ifNoneMatch: String? = nil, ifModifiedSince: String? = nil, limits: TransferLimits = TransferLimits()) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.limits = limits
    }
}

/// The bounds every transfer keeps.
public struct TransferLimits: Sendable, Equatable {
    /// Seconds to open a connection.
    public var connectTimeout: TimeInterval = 10
    /// Seconds below 1 byte/s before the transfer is abandoned.
    public var stallTimeout: TimeInterval = 30
    /// The largest body accepted, counted as it arrives (decoded).
    public var maxBytes: Int64 = 64 << 20
    /// Redirects followed at most.
    public var maxRedirects = 5

    public init() {}
}

/// The final response's status line and the headers the policy needs, with
/// values as received.
public struct ResponseHead: Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var contentType: String?
    public var contentLength: Int64?
    public var validators: Validators

    public init(status: Int = 0, reason: String = "", contentType: String? = nil, contentLength: Int64? = nil,
                validators: Validators = Validators()) {
        self.status = status
        self.reason = reason
        self.contentType = contentType
        self.contentLength = contentLength
        self.validators = validators
    }
}

/// How far a download has come, for a progress bar.
public struct TransferProgress: Sendable, Equatable {
    public var received: Int64
    /// The length when the server announced it.
    public var total: Int64?

    public init(received: Int64, total: Int64?) {
        self.received = received
        self.total = total
    }
}

/// What the receiver says once the final response's headers are in.
public enum HeadDecision: Sendable {
    /// Read the body.
    case readBody
    /// Stop now: the headers told all (an error status, an unchanged image).
    case stop
}

/// Receives one transfer's events, on the transferring thread.
public protocol TransferReceiver: AnyObject {
    /// The final response's headers are in (redirects already followed).
    func head(_ head: ResponseHead) -> HeadDecision
    /// A piece of the (decoded) body. Throwing stops the transfer.
    func body(_ bytes: UnsafeRawBufferPointer) throws(CacheError)
    /// Progress; returning false cancels the transfer.
    func progress(_ progress: TransferProgress) -> Bool
}

/// The result of a transfer that reached a response.
public struct TransferOutcome: Sendable {
    public var head: ResponseHead
    /// The receiver stopped the transfer after the headers.
    public var stoppedAfterHead: Bool
    /// Body bytes delivered.
    public var bodyBytes: Int64
}

/// The network, behind a protocol so that the controller can be driven by a
/// stand-in where a real server does not fit.
public protocol Transport: Sendable {
    func perform(_ request: TransferRequest, receiver: TransferReceiver) throws(TransportError) -> TransferOutcome
    /// Parses an HTTP date (Last-Modified); nil when it cannot.
    func parseHTTPDate(_ text: String) -> Date?
}
