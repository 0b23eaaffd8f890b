internal import CImageShim

/// What a shim call that mallocs its output produced, copied into an array
/// and freed; nil when the call failed (it returns non-zero).
func takeCBuffer(_ call: (inout UnsafeMutablePointer<UInt8>?, inout Int) -> Int32) -> [UInt8]? {
    var out: UnsafeMutablePointer<UInt8>?
    var count = 0
    guard call(&out, &count) == 0, let out else { return nil }
    defer { cimg_free(out) }
    return Array(UnsafeBufferPointer(start: out, count: count))
}
