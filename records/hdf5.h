// HDF5 plumbing shared by the trace writer and reader (an implementation detail of trace.h, not
// a public interface): identifiers closed by scope, HDF5's error stack turned into messages, and
// reading and appending rows of the one-dimensional chunked datasets the tables are made of.
#pragma once

#include <hdf5.h>

#include <optional>
#include <string>
#include <vector>

#include "base/hd.h"

namespace gs::records::h5 {

// An HDF5 identifier (file, group, dataset, type, space, property list), released on scope exit.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id) : id_(id) {}
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  ~Handle() { reset(); }
  hid_t get() const { return id_; }
  bool valid() const { return id_ >= 0; }
  void reset();
  // Gives the identifier up without releasing it (after an explicit H5Fclose, say).
  hid_t release() {
    hid_t id = id_;
    id_ = H5I_INVALID_HID;
    return id;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// Sets the library up, process-wide, once, before any other call: HDF5's printing of its whole
// error stack on stderr is turned off (our messages say what failed and where instead), and so is
// its close-everything handler at exit — every file is closed by its owner, and after a failed
// write (a full disk) that handler would flush the broken file again and crash inside libhdf5.
void initialize();
// The most specific message on HDF5's error stack (e.g. "truncated file: eof = 800, ..."), or
// "" when it is empty; the stack is cleared.
std::string last_error();
// Throws std::runtime_error("PATH: WHAT: last_error()") when id (or a status) is negative.
hid_t check(hid_t id, const std::string& path, const std::string& what);

// >0 when the file starts like an HDF5 file, 0 when not, <0 when it cannot be read.
htri_t is_hdf5(const std::string& file);

// The memory type of a C string (char*) column: variable length, UTF-8, NUL-terminated.
Handle string_type();

bool exists(hid_t parent, const std::string& name);
// Throws when `name` in `parent` is a soft or external link rather than an object of its own: a
// reader never follows a link out of the file (to /etc/passwd, say) or round a loop.
void require_hard_link(hid_t parent, const std::string& name, const std::string& path);
Handle open_group(hid_t parent, const std::string& name, const std::string& path);
Handle create_group(hid_t parent, const std::string& name, const std::string& path);
// The group's direct members, in name order.
std::vector<std::string> members(hid_t group, const std::string& path);

// Attributes of an object; write replaces an existing attribute.
void write_attribute(hid_t object, const std::string& name, const std::string& value,
                     const std::string& path);
void write_attribute(hid_t object, const std::string& name, u64 value, const std::string& path);
void write_f64_attribute(hid_t object, const std::string& name, double value, const std::string& path);
// String attributes are written fixed-length (the text inside the attribute, which the object
// header's checksum covers); the variable-length ones of format 1 files are read too.
std::optional<std::string> read_string_attribute(hid_t object, const std::string& name);
inline constexpr size_t kMaxStringAttributeBytes = size_t(64) << 20;
std::optional<double> read_f64_attribute(hid_t object, const std::string& name);
std::optional<u64> read_integer_attribute(hid_t object, const std::string& name);

// A dataset of shape (0[, width]) growing without bound along its first axis, `chunk_rows` rows
// per chunk, deflate-compressed (numbers shuffled first, which compresses them better). Rows
// made by growing it hold `fill` (HDF5's default, zero, when none).
void create_column(hid_t group, const std::string& name, hid_t file_type, u32 width, u32 chunk_rows,
                   const std::string& path, std::optional<double> fill = std::nullopt);
// A chunk of a column may hold at most this many bytes: reading a crafted file's 4 GB chunk would
// allocate 4 GB.
inline constexpr u64 kMaxChunkBytes = u64(64) << 20;
// Rows along the first axis that the file holds (the extent, but no more than its allocated
// chunks hold: a damaged extent is not believed), and values per row (1 for a one-dimensional
// dataset).
u64 rows(hid_t dataset, const std::string& path);
u64 width(hid_t dataset, const std::string& path);
// Grows the column by `count` rows taken from `data` (count * width values of mem_type).
void append(hid_t dataset, hid_t mem_type, const void* data, u64 count, const std::string& path);
// Reads rows [first, first + count) into `out` (count * width values of mem_type).
void read(hid_t dataset, hid_t mem_type, u64 first, u64 count, void* out, const std::string& path);
// Reads string rows [first, first + count).
std::vector<std::string> read_strings(hid_t dataset, u64 first, u64 count, const std::string& path);
// Shrinks (or grows) the column to `count` rows.
void resize(hid_t dataset, u64 count, const std::string& path);

}  // namespace gs::records::h5
