// Tiling-data classes as Ascend operator projects declare them:
//
//   BEGIN_TILING_DATA_DEF(AddTiling)
//     TILING_DATA_FIELD_DEF(uint32_t, totalLength);
//     TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, tileLen);
//     TILING_DATA_FIELD_DEF_STRUCT(SubTiling, sub);
//   END_TILING_DATA_DEF;
//   REGISTER_TILING_DATA_CLASS(AddCustom, AddTiling)
//
// Each field is a public member of that name (set_<f>/get_<f> access it) and the base class holds
// no data, so an object's bytes are its fields in declaration order at their natural alignment:
// SaveToBuffer copies sizeof(class) bytes, and a CPU kernel reads them back into the same class
// with GET_TILING_DATA_WITH_STRUCT (kernel_tiling/kernel_tiling.h). Compiles at C++11.
#ifndef GE_INCLUDE_REGISTER_TILINGDATA_BASE_H_
#define GE_INCLUDE_REGISTER_TILINGDATA_BASE_H_

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace optiling {

// The base of every tiling-data class: no data, no virtual functions (see above).
class TilingDef {};

// What REGISTER_TILING_DATA_CLASS records: op type -> a creator of its tiling-data class.
class CTilingDataClassFactory {
 public:
  typedef std::shared_ptr<TilingDef> (*Creator)();
  static CTilingDataClassFactory& GetInstance() {
    static CTilingDataClassFactory instance;
    return instance;
  }
  void RegisterTilingData(const char* op_type, Creator creator, size_t data_size = 0) {
    Entry e;
    e.creator = creator;
    e.size = data_size;
    entries_[op_type] = e;
  }
  // A new zeroed instance of the op's tiling-data class, or null when none is registered.
  std::shared_ptr<TilingDef> CreateTilingDataInstance(const char* op_type) const {
    std::map<std::string, Entry>::const_iterator it = entries_.find(op_type);
    return it == entries_.end() ? std::shared_ptr<TilingDef>() : it->second.creator();
  }
  // GE: bytes of the op's tiling-data class (0 when none is registered).
  size_t GetTilingDataSize(const char* op_type) const {
    std::map<std::string, Entry>::const_iterator it = entries_.find(op_type);
    return it == entries_.end() ? 0 : it->second.size;
  }

 private:
  struct Entry {
    Creator creator;
    size_t size;
  };
  std::map<std::string, Entry> entries_;
};

}  // namespace optiling

#define BEGIN_TILING_DATA_DEF(class_name)                                                                   \
  class class_name : public ::optiling::TilingDef {                                                         \
   public:                                                                                                  \
    static const char* GetTilingClassName() { return #class_name; }                                         \
    /* Copies the fields' bytes; a buffer smaller than GetDataSize() is left untouched. */                  \
    void SaveToBuffer(void* pdata, size_t capacity) const {                                                 \
      if (pdata != nullptr && capacity >= sizeof(class_name)) std::memcpy(pdata, this, sizeof(class_name)); \
    }                                                                                                       \
    size_t GetDataSize() const { return sizeof(class_name); }                                               \
    void* GetDataPtr() { return this; }                                                                     \
    /* Reads the fields back from bytes SaveToBuffer wrote. */                                              \
    void SetDataPtr(const void* src) {                                                                      \
      if (src != nullptr) std::memcpy(static_cast<void*>(this), src, sizeof(class_name));                   \
    }

#define TILING_DATA_FIELD_DEF(data_type, field_name)     \
 public:                                                 \
  data_type field_name = data_type();                    \
  void set_##field_name(data_type v) { field_name = v; } \
  data_type get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_ARR(arr_type, arr_size, field_name)     \
 public:                                                              \
  arr_type field_name[arr_size] = {};                                 \
  void set_##field_name(const arr_type* v) {                          \
    if (v != nullptr) std::memcpy(field_name, v, sizeof(field_name)); \
  }                                                                   \
  arr_type* get_##field_name() { return field_name; }                 \
  const arr_type* get_##field_name() const { return field_name; }

#define TILING_DATA_FIELD_DEF_STRUCT(struct_type, field_name)     \
 public:                                                          \
  struct_type field_name;                                         \
  void set_##field_name(const struct_type& v) { field_name = v; } \
  const struct_type& get_##field_name() const { return field_name; }

#define END_TILING_DATA_DEF }

#define GE_TILING_CONCAT_(a, b) a##b
#define GE_TILING_CONCAT(a, b) GE_TILING_CONCAT_(a, b)
#define REGISTER_TILING_DATA_CLASS(op_type, class_name)                                                             \
  namespace {                                                                                                       \
  struct GE_TILING_CONCAT(op_type##class_name##Helper, __LINE__) {                                                  \
    static std::shared_ptr<::optiling::TilingDef> Create() {                                                        \
      return std::shared_ptr<::optiling::TilingDef>(new class_name());                                              \
    }                                                                                                               \
    GE_TILING_CONCAT(op_type##class_name##Helper, __LINE__)() {                                                     \
      ::optiling::CTilingDataClassFactory::GetInstance().RegisterTilingData(#op_type, &Create, sizeof(class_name)); \
    }                                                                                                               \
  } GE_TILING_CONCAT(g_tilingdata_##op_type##class_name, __LINE__);                                                 \
  }

#endif  // GE_INCLUDE_REGISTER_TILINGDATA_BASE_H_
