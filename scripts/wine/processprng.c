/* ProcessPrng, which Rust's std calls for random seeds on Windows since 1.78 and which Wine 8.0's
 * bcryptprimitives.dll lacks: the same bytes from RtlGenRandom (advapi32's SystemFunction036).
 * Built into the test prefix by scripts/wine-run; never part of iolens. */
#include <windows.h>
#define SystemFunction036 NTAPI SystemFunction036
#include <ntsecapi.h>
#undef SystemFunction036

BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T len)
{
    return RtlGenRandom(data, (ULONG)len);
}
