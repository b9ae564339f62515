#pragma once
// True when the suites are built under a sanitizer (TACHO_SANITIZE, the asan and tsan
// presets). Code runs several times slower there and the machine is shared with fuzzers,
// so checks of speed or of an achieved request rate are made in normal builds only; the
// code paths still run and everything else is still checked.
namespace tacho::test {

#if defined(TACHO_TEST_SANITIZED)
inline constexpr bool kSanitizedBuild = true;
#else
inline constexpr bool kSanitizedBuild = false;
#endif

} // namespace tacho::test
