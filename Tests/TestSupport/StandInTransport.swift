import Foundation
import Synchronization
import URLCacheKit

/// A transport that answers from a script instead of the network, and
/// records what it was asked: the controller's every branch, without a
/// server (the end-to-end tests cover the same against nginx).
public final class StandInTransport: Transport {
    /// What the next transfer does: a response (head and body pieces), or a failure.
    public enum Reply: Sendable {
        case response(ResponseHead, body: [[UInt8]])
        case failure(TransportError)
    }

    private let replies: Mutex<[Reply]>
    private let asked = Mutex<[TransferRequest]>([])

    public init(_ replies: [Reply]) { self.replies = Mutex(replies) }

    /// What it was asked, in order.
    public var requests: [TransferRequest] { asked.withLock { $0 } }

    public func perform<R: TransferReceiver>(
        _ request: TransferRequest,
        receiver: R
    ) throws(TransportError) -> TransferOutcome<R.Stop> {
        asked.withLock { $0.append(request) }
        let reply = replies.withLock {
            $0.isEmpty ? Reply.failure(.other(detail: "no reply scripted")) : $0.removeFirst()
        }
        switch reply {
        case let .failure(error):
            throw error
        case let .response(head, body):
            if case let .stop(reason) = receiver.head(head) { return TransferOutcome(head: head, stopped: reason) }
            for piece in body {
                let decision = piece.withUnsafeBytes { receiver.body($0) }
                if case let .stop(reason) = decision { return TransferOutcome(head: head, stopped: reason) }
            }
            return TransferOutcome(head: head, stopped: nil)
        }
    }
}
