#include "parser/onnx/raw_data_split.h"

#include <google/protobuf/io/coded_stream.h>
#include <google/protobuf/wire_format_lite.h>

#include <climits>
#include <cstdint>

namespace ge {
namespace {

using google::protobuf::internal::WireFormatLite;
using google::protobuf::io::CodedInputStream;

// Field numbers in onnx.proto.
constexpr uint32_t kModelGraph = 7;
constexpr uint32_t kGraphInitializer = 5;
constexpr uint32_t kTensorName = 8;
constexpr uint32_t kTensorRawData = 9;

void AppendVarint(uint64_t v, std::string* out) {
  while (v >= 0x80) {
    out->push_back(static_cast<char>((v & 0x7f) | 0x80));
    v >>= 7;
  }
  out->push_back(static_cast<char>(v));
}

void AppendLengthDelimited(uint32_t tag, std::string_view body, std::string* out) {
  AppendVarint(tag, out);
  AppendVarint(body.size(), out);
  out->append(body);
}

// Reads a length-delimited field's body (after its tag) as a view into `bytes`.
bool ReadBody(CodedInputStream* in, std::string_view bytes, std::string_view* body) {
  uint32_t len = 0;
  if (!in->ReadVarint32(&len)) return false;
  const int pos = in->CurrentPosition();
  if (len > bytes.size() - static_cast<size_t>(pos) || !in->Skip(static_cast<int>(len))) return false;
  *body = bytes.substr(static_cast<size_t>(pos), len);
  return true;
}

// Calls f(tag, field_bytes, in) for each field; f consumes the field. False on malformed input.
template <typename F>
bool ForEachField(std::string_view bytes, F&& f) {
  CodedInputStream in(reinterpret_cast<const uint8_t*>(bytes.data()), static_cast<int>(bytes.size()));
  in.SetTotalBytesLimit(INT_MAX);
  while (true) {
    const int start = in.CurrentPosition();
    const uint32_t tag = in.ReadTag();
    if (tag == 0) return in.CurrentPosition() == static_cast<int>(bytes.size());  // the end, not a bad tag
    if (!f(tag, start, &in)) return false;
  }
}

bool IsLengthDelimited(uint32_t tag) {
  return WireFormatLite::GetTagWireType(tag) == WireFormatLite::WIRETYPE_LENGTH_DELIMITED;
}

// A TensorProto without its raw_data when that is large: the rest of its fields, then a
// one-byte raw_data placeholder. *raw is empty when nothing was stripped.
bool SplitTensor(std::string_view bytes, size_t min_bytes, std::string* out, std::string* name, std::string_view* raw) {
  *raw = {};
  std::string rest;
  bool ok = ForEachField(bytes, [&](uint32_t tag, int start, CodedInputStream* in) {
    const uint32_t field = WireFormatLite::GetTagFieldNumber(tag);
    if ((field == kTensorName || field == kTensorRawData) && IsLengthDelimited(tag)) {
      std::string_view body;
      if (!ReadBody(in, bytes, &body)) return false;
      if (field == kTensorName) {
        name->assign(body);
      } else if (body.size() >= min_bytes) {
        *raw = body;  // the last raw_data field wins, as when parsing
        return true;
      } else {
        *raw = {};
      }
    } else if (!WireFormatLite::SkipField(in, tag)) {
      return false;
    }
    rest.append(bytes.substr(static_cast<size_t>(start), static_cast<size_t>(in->CurrentPosition() - start)));
    return true;
  });
  if (!ok) return false;
  *out = std::move(rest);
  if (!raw->empty())
    AppendLengthDelimited(WireFormatLite::MakeTag(kTensorRawData, WireFormatLite::WIRETYPE_LENGTH_DELIMITED),
                          std::string_view("\0", 1), out);
  return true;
}

bool SplitGraph(std::string_view bytes, size_t min_bytes, std::string* out, RawDataMap* raw) {
  return ForEachField(bytes, [&](uint32_t tag, int start, CodedInputStream* in) {
    if (WireFormatLite::GetTagFieldNumber(tag) == kGraphInitializer && IsLengthDelimited(tag)) {
      std::string_view body, data;
      std::string tensor, name;
      if (!ReadBody(in, bytes, &body) || !SplitTensor(body, min_bytes, &tensor, &name, &data)) return false;
      if (!data.empty()) {
        if (name.empty() || !raw->emplace(name, data).second) return false;  // unnamed or twice: as they are
        AppendLengthDelimited(tag, tensor, out);
        return true;
      }
    } else if (!WireFormatLite::SkipField(in, tag)) {
      return false;
    }
    out->append(bytes.substr(static_cast<size_t>(start), static_cast<size_t>(in->CurrentPosition() - start)));
    return true;
  });
}

}  // namespace

bool SplitLargeRawData(std::string_view model, size_t min_bytes, SplitModel* out) {
  out->message.clear();
  out->raw.clear();
  if (model.size() > static_cast<size_t>(INT_MAX) || min_bytes == 0) return false;
  bool graphs = false;
  bool ok = ForEachField(model, [&](uint32_t tag, int start, CodedInputStream* in) {
    if (WireFormatLite::GetTagFieldNumber(tag) == kModelGraph && IsLengthDelimited(tag) && !graphs) {
      std::string_view body;
      std::string graph;
      if (!ReadBody(in, model, &body) || !SplitGraph(body, min_bytes, &graph, &out->raw)) return false;
      graphs = true;
      AppendLengthDelimited(tag, graph, &out->message);
      return true;
    }
    if (WireFormatLite::GetTagFieldNumber(tag) == kModelGraph) return false;  // a second graph field merges: as is
    if (!WireFormatLite::SkipField(in, tag)) return false;
    out->message.append(model.substr(static_cast<size_t>(start), static_cast<size_t>(in->CurrentPosition() - start)));
    return true;
  });
  if (!ok) {
    out->message.clear();
    out->raw.clear();
  }
  return ok;
}

}  // namespace ge
