//! The kernel's block tracepoints for one device (`iolens capture`): Linux's tracefs, and a
//! refusal elsewhere. blktrace's relay files are refused on the machines this serves, so
//! blktrace itself is not used.

#[cfg(target_os = "linux")]
mod linux;
#[cfg(target_os = "linux")]
pub use linux::BlockTrace;

#[cfg(not(target_os = "linux"))]
mod other;
#[cfg(not(target_os = "linux"))]
pub use other::BlockTrace;
