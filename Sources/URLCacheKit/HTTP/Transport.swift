import FoundationEssentials
import URLCacheSupport

/// One conditional GET.
public struct TransferRequest: Sendable {
    public var url: URL
    public var ifNoneMatch: String?
    public var ifModifiedSince: String?
    /// The Accept header's value; nil leaves libcurl's `*/*`.
    public var accept: String?
    public var limits: TransferLimits

    public init(
        url: URL,
        ifNoneMatch: String? = nil,
        ifModifiedSince: String? = nil,
        limits: TransferLimits = TransferLimits()
    ) {
        self.url = url
        self.ifNoneMatch = ifNoneMatch
        self.ifModifiedSince = ifModifiedSince
        self.limits = limits
    }

    /// What an image request accepts: the formats the decoders read, best
    /// first, so that a server that negotiates sends the smallest. Anything
    /// else is still taken and told by its bytes.
    public static let imageTypes =
        "image/avif,image/webp,image/apng,image/jxl;q=0.9,image/png;q=0.9,image/jpeg;q=0.9,image/gif;q=0.8,image/heic;q=0.7,image/tiff;q=0.6,*/*;q=0.5"

    /// Whether it carries a condition: only then can a 304 answer it.
    public var isConditional: Bool { ifNoneMatch != nil || ifModifiedSince != nil }
}

/// The bounds every transfer keeps.
public struct TransferLimits: Sendable, Equatable {
    /// Seconds to open a connection.
    public var connectTimeout: TimeInterval = 10
    /// Seconds without a single byte (header or body) before the transfer
    /// is abandoned: a rule of elapsed time, so the same server stalls at
    /// the same moment every run.
    public var stallTimeout: TimeInterval = 30
    /// Seconds the whole transfer may take, as curl's `--max-time`: a
    /// trickle that never stalls still ends. Waiting for another process's
    /// lock on the entry counts against it too.
    public var maxTime: TimeInterval = 300
    /// When the whole check must be over: set by the controller as a check
    /// starts, so that the lock wait and every transfer of the check (a
    /// feed and its image) share one `maxTime`. nil: each transfer its own.
    public var deadline: ContinuousClock.Instant?
    /// The largest body accepted, counted as it arrives (decoded).
    public var maxBytes: Int64 = 64 << 20
    /// Redirects followed at most.
    public var maxRedirects = 5

    public init() {}

    /// Seconds this transfer may still take, counted from `start` and never
    /// past the check's deadline.
    public func timeLeft(since start: ContinuousClock.Instant) -> TimeInterval {
        let now = ContinuousClock.now
        var left = maxTime - (now - start).seconds
        if let deadline { left = min(left, (deadline - now).seconds) }
        return left
    }
}

/// The final response's status line and the headers the policy needs, with
/// values as received.
public struct ResponseHead: Sendable, Equatable {
    public var status: Int
    public var reason: String
    public var contentType: String?
    public var contentLength: Int64?
    public var validators: Validators
    /// What the server says about freshness, verbatim (several
    /// Cache-Control lines joined with commas).
    public var cacheControl: String?
    public var expires: String?
    public var date: String?
    public var age: String?
    /// Retry-After (RFC 9110 §10.2.3), verbatim: seconds or an HTTP date.
    public var retryAfter: String?
    /// The chain's first response when it was a permanent redirect
    /// (libcurl follows it; the policy may remember it).
    public var permanentRedirect: RedirectHop?

    /// Whether the status says the body is the whole resource that a plain
    /// GET asked for. We never send Range, so a 206 (or 201, 202, 204…)
    /// is no image to keep, whatever its bytes look like.
    public var isWholeAnswer: Bool { status == 200 || status == 203 }

    public init(
        status: Int = 0,
        reason: String = "",
        contentType: String? = nil,
        contentLength: Int64? = nil,
        validators: Validators = Validators(),
        cacheControl: String? = nil,
        expires: String? = nil,
        date: String? = nil,
        age: String? = nil
    ) {
        self.status = status
        self.reason = reason
        self.contentType = contentType
        self.contentLength = contentLength
        self.validators = validators
        self.cacheControl = cacheControl
        self.expires = expires
        self.date = date
        self.age = age
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

/// What a receiver says at each step of a transfer: go on, or stop it now
/// for a reason of its own, which the transport hands back in its outcome.
public enum TransferDecision<Stop> {
    /// Go on: read the body, or more of it.
    case proceed
    /// End the transfer here; this is not a failure of the transfer.
    case stop(Stop)
}

/// Receives one transfer's events, on whichever thread drives the
/// process's transfers at that moment (CurlTransport shares one libcurl
/// multi handle) while `perform`'s caller waits. So a receiver never
/// blocks, and never waits for anything the caller's thread holds: it would
/// hold up every transfer in flight.
public protocol TransferReceiver: AnyObject {
    /// Why this receiver may stop a transfer.
    associatedtype Stop
    /// The final response's headers are in (redirects already followed).
    func head(_ head: ResponseHead) -> TransferDecision<Stop>
    /// A piece of the (decoded) body.
    func body(_ bytes: UnsafeRawBufferPointer) -> TransferDecision<Stop>
    /// Progress; returning false cancels the transfer.
    func progress(_ progress: TransferProgress) -> Bool
}

/// How a transfer that reached a final response ended.
public struct TransferOutcome<Stop> {
    /// The final response's head.
    public var head: ResponseHead
    /// Why the receiver stopped it, if it did; nil when the body was read to its end.
    public var stopped: Stop?

    public init(head: ResponseHead, stopped: Stop?) {
        self.head = head
        self.stopped = stopped
    }
}

/// The network, behind a protocol so that the controller's unit tests can
/// drive every branch through a stand-in.
public protocol Transport: Sendable {
    /// Performs one GET, handing its events to `receiver`. Throws when no
    /// usable response came (offline, TLS, limits, cancel, a cut transfer).
    func perform<R: TransferReceiver>(
        _ request: TransferRequest,
        receiver: R
    ) throws(TransportError) -> TransferOutcome<R.Stop>
}
