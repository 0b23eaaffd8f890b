import FoundationEssentials

/// A transfer whose body was not kept, for a reason its head gave: what
/// an image's transfer and a feed's share.
enum Unread: Equatable {
    /// 304 Not Modified, to a conditional request.
    case notModified
    /// 304 to a request that carried no condition: it confirms nothing.
    case unaskedNotModified
    /// The headers matched the stored validators (a server that ignores
    /// conditions): the body was not read.
    case unchangedByHeaders
    /// A status other than 200, 203 or 304 (a 206 included): the head says which.
    case errorStatus
}

/// The head's verdict, one rule for both receivers: a 304 (asked for or
/// not), an answer that is not the whole image, or validators that show
/// the stored copy unchanged.
struct HeadVerdict {
    /// The validators stored with the cached copy, when there is one.
    let stored: Validators?
    let now: Date
    /// The request carried a condition, so a 304 answers it.
    let conditional: Bool

    func status(_ head: ResponseHead) -> Unread? {
        if head.status == 304 { return conditional ? .notModified : .unaskedNotModified }
        return head.isWholeAnswer ? nil : .errorStatus
    }

    func validators(_ head: ResponseHead) -> Unread? {
        guard let stored,
            RefreshPolicy.headersShowUnchanged(stored: stored, received: head.validators, now: now) == true
        else { return nil }
        return .unchangedByHeaders
    }
}
