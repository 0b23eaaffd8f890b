import Dispatch
import Foundation
import Synchronization
import URLCacheSupport
import XCTest

#if canImport(Glibc)
import Glibc
#endif

/// What the program does without swift-corelibs-foundation, against what
/// Foundation itself does: the test bundle links Foundation, so it is the
/// oracle here.
final class FoundationFreeTests: XCTestCase {
    /// Every scalar of the Basic Multilingual Plane and the first
    /// supplementary one, trimmed from both ends by both.
    func testTrimmingRemovesWhatFoundationsCharacterSetsRemove() {
        let pairs: [(TrimmedScalars, CharacterSet)] = [
            (.whitespaces, .whitespaces), (.whitespacesAndNewlines, .whitespacesAndNewlines),
        ]
        for (ours, theirs) in pairs {
            for value in UInt32(0)...0x1_FFFF {
                guard let scalar = Unicode.Scalar(value) else { continue }
                let text = "\(scalar)a\(scalar)"
                XCTAssertEqual(
                    text.trimming(ours),
                    text.trimmingCharacters(in: theirs),
                    "U+\(String(value, radix: 16, uppercase: true))"
                )
            }
        }
        XCTAssertEqual(" \u{FEFF}x y\u{FEFF}\n".trimming(.whitespacesAndNewlines.union(.scalars("\u{FEFF}"))), "x y")
        XCTAssertEqual("[::1]".trimming(.scalars("[]")), "::1")
        XCTAssertEqual(" \t ".trimming(.whitespaces), "")
    }

    func testCFormatWritesWhatStringFormatWrites() {
        let values: [Double] = [
            0, 0.05, 0.15, 0.25, 1.45, 2.5, 9.95, 10.04, 999.95, 1e-7, -3.25, 123_456.789, .infinity,
        ]
        for value in values {
            for format in ["%.1f", "%.2f", "%.0f"] {
                XCTAssertEqual(CFormat.string(format, value), String(format: format, value), "\(format) \(value)")
            }
        }
        XCTAssertEqual(CFormat.string("%ld frames, %ld bytes", 12, Int.max), "12 frames, \(Int.max) bytes")
        // Longer than the first buffer.
        XCTAssertEqual(CFormat.string("%0300.1f", 1.25), String(format: "%0300.1f", 1.25))
    }

    /// Many threads started, each with the stack it asked for, each
    /// waited for through the condition.
    func testDetachedThreadsRunWithTheirStackAndSignalThroughTheCondition() {
        let condition = Condition()
        let stacks = Mutex<[Int]>([])
        let count = 16
        for index in 0..<count {
            let asked = index.isMultiple(of: 2) ? 1 << 20 : 4 << 20
            XCTAssertTrue(
                DetachedThread.start(stackSize: asked) {
                    let size = FoundationFreeTests.stackSize()
                    condition.lock()
                    stacks.withLock { $0.append(size >= asked ? asked : -size) }
                    condition.signal()
                    condition.unlock()
                }
            )
        }
        condition.lock()
        while stacks.withLock({ $0.count }) < count { condition.wait() }
        condition.unlock()
        XCTAssertEqual(
            stacks.withLock { $0.sorted() },
            Array(repeating: 1 << 20, count: 8) + Array(repeating: 4 << 20, count: 8)
        )
    }

    /// The calling thread's stack, as glibc's pthread_getattr_np gives it
    /// (looked up by name: Glibc's module map leaves the GNU extensions out).
    private static func stackSize() -> Int {
        typealias GetAttr = @convention(c) (pthread_t, UnsafeMutablePointer<pthread_attr_t>) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "pthread_getattr_np") else { return 0 }
        var attributes = pthread_attr_t()
        guard unsafeBitCast(symbol, to: GetAttr.self)(pthread_self(), &attributes) == 0 else { return 0 }
        defer { pthread_attr_destroy(&attributes) }
        var size = 0
        pthread_attr_getstacksize(&attributes, &size)
        return size
    }

    func testTheTemporaryAndHomeDirectoriesAreFoundationsOwn() {
        XCTAssertEqual(Posix.temporaryDirectory + "/", NSTemporaryDirectory())
        XCTAssertEqual(Posix.homeDirectory, String(cString: getpwuid(getuid()).pointee.pw_dir))
    }
}
