use std::alloc::{dealloc, Layout};

/// A heap buffer aligned to 4 KiB, as O_DIRECT needs on every device we meet.
pub struct AlignedBuf {
    ptr: *mut u8,
    layout: Layout,
}

// The buffer is plain memory owned by one worker; moving it between threads is safe.
unsafe impl Send for AlignedBuf {}

impl AlignedBuf {
    pub const ALIGN: usize = 4096;
    const HUGE: usize = 2 << 20;

    pub fn try_new(len: usize) -> std::io::Result<Self> {
        // Large buffers sit in transparent huge pages where the kernel allows it: physically
        // contiguous memory keeps a 1 MiB I/O in one or two DMA segments instead of 256, which
        // some devices (virtio-blk: 254 segments) would otherwise split into two requests.
        Self::with_pages(len, len >= Self::HUGE / 2, 0)
    }

    fn with_pages(len: usize, huge: bool, apart: usize) -> std::io::Result<Self> {
        // The region starts on an `apart` boundary but is only as long as its pages: DiskSpd's
        // 16 MiB separation reserves address space between workers, never memory.
        let page = if huge { Self::HUGE } else { Self::ALIGN };
        let layout = Layout::from_size_align(len.max(1).div_ceil(page) * page, page.max(apart)).expect("buffer layout");
        // SAFETY: layout has a non-zero size.
        let ptr = unsafe { std::alloc::alloc(layout) };
        if ptr.is_null() {
            return Err(std::io::Error::new(
                std::io::ErrorKind::OutOfMemory,
                format!("cannot allocate {} bytes of I/O buffers", layout.size()),
            ));
        }
        #[cfg(target_os = "linux")]
        if huge {
            // SAFETY: the range is our own fresh allocation. Advice only; failure is harmless.
            unsafe { libc::madvise(ptr as *mut _, layout.size(), libc::MADV_HUGEPAGE) };
        }
        // SAFETY: ptr is valid for layout.size() bytes. Touching it now faults the pages in
        // (huge where possible) before any I/O uses them.
        unsafe { std::ptr::write_bytes(ptr, 0, layout.size()) };
        Ok(AlignedBuf { ptr, layout })
    }

    pub fn len(&self) -> usize {
        self.layout.size()
    }

    pub fn is_empty(&self) -> bool {
        false
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: ptr is valid for layout.size() bytes for the life of self.
        unsafe { std::slice::from_raw_parts(self.ptr, self.layout.size()) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as above, and &mut self gives exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr, self.layout.size()) }
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        // SAFETY: allocated with this layout in new().
        unsafe { dealloc(self.ptr, self.layout) }
    }
}

/// Every slot's buffer in one allocation, as fio keeps its io_u buffers: a separate 4 KiB-aligned
/// block per slot costs the allocator a page of padding beside each (a worker at QD 256 held
/// 2 MiB for 1 MiB of buffers), and one region is what the kernel registers.
pub struct BufPool {
    mem: std::mem::ManuallyDrop<AlignedBuf>,
    stride: usize,
    count: usize,
    leaked: bool,
}

impl BufPool {
    /// `count` buffers of at least `len` bytes. Buffers of 1 MiB or more go in huge pages
    /// (see `AlignedBuf::try_new`), each on a power-of-two stride so that none straddles two.
    pub fn try_new(count: usize, len: usize) -> std::io::Result<BufPool> {
        Self::apart(count, len, 0)
    }

    /// As `try_new`, the region starting on a boundary of `apart` bytes (a power of two, or 0)
    /// so that no other pool so placed shares that span of memory.
    pub fn apart(count: usize, len: usize, apart: usize) -> std::io::Result<BufPool> {
        let huge = len >= AlignedBuf::HUGE / 2;
        let len = len.max(1).div_ceil(AlignedBuf::ALIGN) * AlignedBuf::ALIGN;
        let stride = if huge { len.next_power_of_two() } else { len };
        let total = stride.checked_mul(count.max(1)).ok_or_else(|| {
            std::io::Error::new(std::io::ErrorKind::OutOfMemory, format!("{count} I/O buffers of {len} bytes"))
        })?;
        let mem = std::mem::ManuallyDrop::new(AlignedBuf::with_pages(total, huge, apart)?);
        Ok(BufPool { mem, stride, count, leaked: false })
    }

    pub fn count(&self) -> usize {
        self.count
    }

    /// The length of each buffer.
    pub fn len(&self) -> usize {
        self.stride
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn slot(&mut self, i: usize) -> &mut [u8] {
        let s = self.stride;
        &mut self.mem.as_mut_slice()[i * s..(i + 1) * s]
    }

    pub fn ptr(&mut self, i: usize) -> *mut u8 {
        self.slot(i).as_mut_ptr()
    }

    /// Never frees the memory: for when the kernel may still write into it.
    pub fn leak(&mut self) {
        self.leaked = true;
    }
}

impl Drop for BufPool {
    fn drop(&mut self) {
        if !self.leaked {
            // SAFETY: dropped once, here, and not used after.
            unsafe { std::mem::ManuallyDrop::drop(&mut self.mem) }
        }
    }
}

#[cfg(test)]
mod tests;
