internal import CImageShim

/// The lock on the process's stderr that a decoder holds while it silences
/// a library that prints (libjxl 0.7 writes each failure's trace there):
/// whoever writes a line to stderr takes it, so the line is never written
/// while fd 2 points at /dev/null.
public enum StandardError {
    public static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        cimg_stderr_lock()
        defer { cimg_stderr_unlock() }
        return try body()
    }
}
