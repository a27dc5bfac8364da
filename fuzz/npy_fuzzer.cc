// Fuzz harness: the .npy reader (ge::ReadNpyBytes, the code behind `ge run --input x=f.npy`).
// Any bytes must give a tensor whose byte size matches its dtype and shape, or an error status.
#include <cstdint>
#include <cstdlib>
#include <string>

#include "ge/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  ge::HostTensor t;
  ge::Status st = ge::ReadNpyBytes(std::string(reinterpret_cast<const char*>(data), size), &t);
  if (!st.ok()) {
    if (st.message().empty()) std::abort();  // every error says what is wrong
    return 0;
  }
  const int64_t n = t.NumElements();
  if (n < 0 || static_cast<uint64_t>(n) * ge::GetSizeByDataType(t.dtype()) != t.NumBytes()) std::abort();
  // Touch every byte (ASan checks the buffer really is that large).
  const auto* p = static_cast<const uint8_t*>(t.data());
  volatile uint8_t sum = 0;
  for (size_t i = 0; i < t.NumBytes(); ++i) sum += p[i];
  (void)t.ToInt64Vector();
  return 0;
}
