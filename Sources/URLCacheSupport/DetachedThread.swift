import Glibc

/// Work started on a POSIX thread of its own, which nobody joins.
///
/// Foundation's `Thread` did this before. It lives in swift-corelibs-foundation,
/// which links CoreFoundation and 34 MB of ICU into the program; their
/// relocations and conformance records cost every start about 1.2 ms.
/// FoundationEssentials has no thread, so the program starts its own.
package enum DetachedThread {
    /// Starts `body` on a new thread with a stack of `stackSize` bytes, or the
    /// system's default (RLIMIT_STACK, usually 8 MiB) when it is nil.
    ///
    /// Returns false when the system has no thread to give; `body` is then never run.
    @discardableResult
    package static func start(stackSize: Int? = nil, _ body: @escaping @Sendable () -> Void) -> Bool {
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        if let stackSize { pthread_attr_setstacksize(&attributes, max(stackSize, Int(PTHREAD_STACK_MIN))) }
        let box = Unmanaged.passRetained(Body(body)).toOpaque()
        var thread = pthread_t()
        let started = pthread_create(
            &thread,
            &attributes,
            { raw in
                guard let raw else { return nil }
                Unmanaged<Body>.fromOpaque(raw).takeRetainedValue().run()
                return nil
            },
            box
        )
        if started != 0 { Unmanaged<Body>.fromOpaque(box).release() }
        return started == 0
    }

    private final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
}
