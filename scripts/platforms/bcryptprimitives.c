// Wine 8 (Debian 12) has no bcryptprimitives.dll, and Rust's std (1.78 and
// later) takes its random seed from ProcessPrng there, which Windows 10 and
// later have. This shim, used only when the Windows build runs under Wine in
// scripts/test-platforms.js, forwards ProcessPrng to RtlGenRandom
// (advapi32's SystemFunction036), which Wine has. It is never shipped.
#include <windows.h>

BOOLEAN WINAPI SystemFunction036(PVOID buffer, ULONG length);

__declspec(dllexport) BOOL WINAPI ProcessPrng(PBYTE data, SIZE_T length) {
  while (length > 0) {
    ULONG chunk = length > 0x10000000 ? 0x10000000 : (ULONG)length;
    if (!SystemFunction036(data, chunk)) return FALSE;
    data += chunk;
    length -= chunk;
  }
  return TRUE;
}
