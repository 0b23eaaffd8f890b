import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The one place where errno and Foundation's file errors become words a
/// person understands ("no space left on device", "permission denied").
public enum FileSystemError {
    /// The reason for the errno value `code`, e.g. "no space left on device".
    public static func reason(errno code: Int32) -> String {
        String(cString: strerror(code)).lowercasedFirst
    }

    /// The reason inside any error Foundation's file calls throw.
    public static func reason(of error: any Error) -> String {
        let ns = error as NSError
        if ns.domain == NSPOSIXErrorDomain { return reason(errno: Int32(ns.code)) }
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError,
           underlying.domain == NSPOSIXErrorDomain {
            return reason(errno: Int32(underlying.code))
        }
        switch CocoaError.Code(rawValue: ns.code) {
        case .fileReadNoSuchFile, .fileNoSuchFile: return "no such file"
        case .fileReadNoPermission, .fileWriteNoPermission: return "permission denied"
        case .fileWriteOutOfSpace: return "no space left on device"
        case .fileReadCorruptFile: return "the file is corrupt"
        default: return ns.localizedDescription.terminalSafe
        }
    }
}

extension String {
    var lowercasedFirst: String {
        guard let first else { return self }
        return first.lowercased() + dropFirst()
    }
}
