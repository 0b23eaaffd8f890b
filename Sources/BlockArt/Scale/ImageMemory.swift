internal import CImageShim

/// Where a picture's large buffers come from. The decoders, the resampler
/// and the encoders allocate and free blocks of megabytes (rows, pixmaps, a
/// zoomed region, a picture's bytes) on several threads: the loader's, the
/// zoom's, the thumbnails', the renderer's second core.
public enum ImageMemory {
    /// Every thread allocates from one heap. glibc gives each thread that
    /// meets a busy heap one of its own, and a block freed in one heap is
    /// no use to the next decode on another thread, so the process held
    /// the sum of them: a zoom into a 100-megapixel WebP in kitty held
    /// 73 MiB more than the fitted picture, 61 with one heap, and the JPEG
    /// 58 then 53 (Benchmarks/zoom-memory.sh). The zoom's and `render`'s
    /// times stay as they were: the threads seldom allocate at once.
    /// (Blocks straight from the kernel, mallopt's mmap threshold, held
    /// less, 39 MiB, but made each zoom step 40 ms slower with the page
    /// faults of fresh memory.) Call it once, at the start.
    public static func shareOneHeap() {
        _ = cimg_one_heap()
    }
}
