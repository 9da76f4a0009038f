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
        let huge = len >= Self::HUGE / 2;
        let align = if huge { Self::HUGE } else { Self::ALIGN };
        let layout = Layout::from_size_align(len.max(1).div_ceil(align) * align, align).expect("buffer layout");
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
