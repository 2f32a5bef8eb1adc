#include "records/hdf5.h"

#include <zlib.h>

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace gs::records::h5 {

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    reset();
    id_ = o.id_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

void Handle::reset() {
  // H5Idec_ref closes any kind of identifier when its last reference goes.
  if (id_ >= 0) H5Idec_ref(id_);
  id_ = H5I_INVALID_HID;
}

void initialize() {
  static const bool done = [] {
    H5dont_atexit();
    return H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr) >= 0;
  }();
  (void)done;
}

std::string last_error() {
  std::string innermost;
  // Walking upward visits the most specific error (where it was detected) first.
  H5Ewalk2(
      H5E_DEFAULT, H5E_WALK_UPWARD,
      [](unsigned n, const H5E_error2_t* e, void* data) -> herr_t {
        if (n == 0 && e->desc != nullptr) *static_cast<std::string*>(data) = e->desc;
        return 0;
      },
      &innermost);
  H5Eclear2(H5E_DEFAULT);
  // The file driver's failures carry the system's reason inside a long dump ("file write failed:
  // time = ..., errno = 28, error message = 'No space left on device', buf = ..."): keep the
  // start and the reason.
  const std::string marker = "error message = '";
  if (const size_t at = innermost.find(marker); at != std::string::npos) {
    const size_t end = innermost.find('\'', at + marker.size());
    const std::string reason =
        innermost.substr(at + marker.size(), end == std::string::npos ? end : end - at - marker.size());
    innermost = innermost.substr(0, innermost.find(':')) + ": " + reason;
  }
  return innermost;
}

hid_t check(hid_t id, const std::string& path, const std::string& what) {
  if (id >= 0) return id;
  std::string why = last_error();
  throw std::runtime_error(path + ": " + what + (why.empty() ? "" : ": " + why));
}

htri_t is_hdf5(const std::string& file) {
#if H5_VERSION_GE(1, 12, 0)
  return H5Fis_accessible(file.c_str(), H5P_DEFAULT);
#else
  return H5Fis_hdf5(file.c_str());
#endif
}

Handle string_type() {
  Handle t(H5Tcopy(H5T_C_S1));
  H5Tset_size(t.get(), H5T_VARIABLE);
  H5Tset_cset(t.get(), H5T_CSET_UTF8);
  return t;
}

bool exists(hid_t parent, const std::string& name) {
  htri_t r = H5Lexists(parent, name.c_str(), H5P_DEFAULT);
  if (r < 0) last_error();
  return r > 0;
}

void require_hard_link(hid_t parent, const std::string& name, const std::string& path) {
  H5L_info_t info;  // H5Lget_info: H5Lget_info2 under HDF5 >= 1.12's default API
  if (H5Lget_info(parent, name.c_str(), &info, H5P_DEFAULT) < 0) {
    last_error();  // (clears the stack) the open that follows says why
    return;
  }
  if (info.type == H5L_TYPE_HARD) return;
  throw std::runtime_error(path + ": " + name + " is " +
                           (info.type == H5L_TYPE_EXTERNAL ? "an external link" : "a soft link") +
                           ", not an object of the file: a records file holds its groups and columns "
                           "itself, and links are not followed");
}

Handle open_group(hid_t parent, const std::string& name, const std::string& path) {
  require_hard_link(parent, name, path);
  return Handle(check(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), path, "cannot open group " + name));
}

Handle create_group(hid_t parent, const std::string& name, const std::string& path) {
  return Handle(check(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), path,
                      "cannot create group " + name));
}

std::vector<std::string> members(hid_t group, const std::string& path) {
  std::vector<std::string> names;
  herr_t r = H5Literate(
      group, H5_INDEX_NAME, H5_ITER_INC, nullptr,
      [](hid_t, const char* name, const H5L_info_t*, void* data) -> herr_t {
        static_cast<std::vector<std::string>*>(data)->push_back(name);
        return 0;
      },
      &names);
  check(r, path, "cannot list a group");
  return names;
}

namespace {

void remove_attribute(hid_t object, const std::string& name, const std::string& path) {
  htri_t r = H5Aexists(object, name.c_str());
  check(r, path, "cannot look up attribute " + name);
  if (r > 0) check(H5Adelete(object, name.c_str()), path, "cannot replace attribute " + name);
}

void write_scalar_attribute(hid_t object, const std::string& name, hid_t type, const void* value,
                            const std::string& path) {
  remove_attribute(object, name, path);
  Handle space(check(H5Screate(H5S_SCALAR), path, "cannot make a dataspace"));
  Handle attr(check(H5Acreate2(object, name.c_str(), type, space.get(), H5P_DEFAULT, H5P_DEFAULT), path,
                    "cannot create attribute " + name));
  check(H5Awrite(attr.get(), type, value), path, "cannot write attribute " + name);
}

Handle open_attribute(hid_t object, const std::string& name) {
  htri_t r = H5Aexists(object, name.c_str());
  if (r <= 0) {
    last_error();
    return Handle();
  }
  Handle a(H5Aopen(object, name.c_str(), H5P_DEFAULT));
  if (!a.valid()) last_error();
  return a;
}

}  // namespace

void write_attribute(hid_t object, const std::string& name, const std::string& value,
                     const std::string& path) {
  // Fixed-length, so that the text sits in the attribute itself (inside the checksummed object
  // header or dense attribute storage), not in the global heap.
  Handle type(check(H5Tcopy(H5T_C_S1), path, "cannot make a string type"));
  check(H5Tset_size(type.get(), std::max<size_t>(value.size(), 1)), path, "cannot size attribute " + name);
  H5Tset_strpad(type.get(), H5T_STR_NULLPAD);
  H5Tset_cset(type.get(), H5T_CSET_UTF8);
  std::string padded = value.empty() ? std::string(1, '\0') : value;
  write_scalar_attribute(object, name, type.get(), padded.data(), path);
}

void write_attribute(hid_t object, const std::string& name, u64 value, const std::string& path) {
  write_scalar_attribute(object, name, H5T_NATIVE_UINT64, &value, path);
}

void write_f64_attribute(hid_t object, const std::string& name, double value, const std::string& path) {
  write_scalar_attribute(object, name, H5T_NATIVE_DOUBLE, &value, path);
}

std::optional<double> read_f64_attribute(hid_t object, const std::string& name) {
  Handle a = open_attribute(object, name);
  if (!a.valid()) return std::nullopt;
  Handle file_type(H5Aget_type(a.get()));
  double value = 0;
  if (!file_type.valid() || H5Tget_class(file_type.get()) != H5T_FLOAT ||
      H5Aread(a.get(), H5T_NATIVE_DOUBLE, &value) < 0) {
    last_error();
    return std::nullopt;
  }
  return value;
}

std::optional<std::string> read_string_attribute(hid_t object, const std::string& name) {
  Handle a = open_attribute(object, name);
  if (!a.valid()) return std::nullopt;
  Handle file_type(H5Aget_type(a.get()));
  Handle space(H5Aget_space(a.get()));
  if (!file_type.valid() || !space.valid() || H5Tget_class(file_type.get()) != H5T_STRING ||
      H5Sget_simple_extent_npoints(space.get()) != 1) {
    last_error();
    return std::nullopt;
  }
  if (H5Tis_variable_str(file_type.get()) > 0) {
    // Format 1 files: a variable-length string, in the global heap.
    Handle type = string_type();
    char* text = nullptr;
    if (H5Aread(a.get(), type.get(), &text) < 0) {
      last_error();
      return std::nullopt;
    }
    std::string value = text != nullptr ? text : "";
    H5free_memory(text);
    return value;
  }
  const size_t size = H5Tget_size(file_type.get());
  if (size == 0 || size > kMaxStringAttributeBytes) return std::nullopt;
  std::string value(size, '\0');
  Handle type(H5Tcopy(file_type.get()));
  if (!type.valid() || H5Aread(a.get(), type.get(), value.data()) < 0) {
    last_error();
    return std::nullopt;
  }
  value.resize(std::min(value.size(), value.find('\0')));  // NUL-padded (or NUL-terminated)
  return value;
}

std::optional<u64> read_integer_attribute(hid_t object, const std::string& name) {
  Handle a = open_attribute(object, name);
  if (!a.valid()) return std::nullopt;
  Handle file_type(H5Aget_type(a.get()));
  u64 value = 0;
  if (!file_type.valid() || H5Tget_class(file_type.get()) != H5T_INTEGER ||
      H5Aread(a.get(), H5T_NATIVE_UINT64, &value) < 0) {
    last_error();
    return std::nullopt;
  }
  return value;
}

void create_column(hid_t group, const std::string& name, hid_t file_type, u32 width, u32 chunk_rows,
                   const std::string& path, std::optional<double> fill) {
  int rank = width > 1 ? 2 : 1;
  hsize_t dims[2] = {0, width}, max_dims[2] = {H5S_UNLIMITED, width}, chunk[2] = {chunk_rows, width};
  Handle space(check(H5Screate_simple(rank, dims, max_dims), path, "cannot make a dataspace"));
  Handle plist(check(H5Pcreate(H5P_DATASET_CREATE), path, "cannot make a property list"));
  check(H5Pset_chunk(plist.get(), rank, chunk), path, "cannot set the chunk size of " + name);
  if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) > 0) {
    // Strings are stored as references into HDF5's global heap, which is not compressed;
    // shuffling bytes only helps numbers.
    if (H5Tget_class(file_type) != H5T_STRING) H5Pset_shuffle(plist.get());
    H5Pset_deflate(plist.get(), 4);
  }
  // Last, so that it sums the bytes as stored: a damaged chunk is an error on reading, never
  // other numbers. HDF5 takes no checksum on variable-length strings (they live in the global
  // heap, outside the chunks).
  if (H5Tget_class(file_type) != H5T_STRING)
    check(H5Pset_fletcher32(plist.get()), path, "cannot set the checksum of " + name);
  if (fill)
    check(H5Pset_fill_value(plist.get(), H5T_NATIVE_DOUBLE, &*fill), path,
          "cannot set the fill value of " + name);
  Handle d(
      check(H5Dcreate2(group, name.c_str(), file_type, space.get(), H5P_DEFAULT, plist.get(), H5P_DEFAULT),
            path, "cannot create dataset " + name));
}

namespace {

struct Shape {
  int rank = 1;
  hsize_t dims[2] = {0, 1};
};

Shape shape_of(hid_t dataset, const std::string& path) {
  Handle space(check(H5Dget_space(dataset), path, "cannot read a dataset's shape"));
  Shape s;
  s.rank = H5Sget_simple_extent_ndims(space.get());
  if (s.rank < 1 || s.rank > 2)
    throw std::runtime_error(path + ": a table column has " + std::to_string(s.rank) + " dimensions");
  check(H5Sget_simple_extent_dims(space.get(), s.dims, nullptr), path, "cannot read a dataset's shape");
  if (s.rank == 1) s.dims[1] = 1;
  return s;
}

// The file space of `dataset` with rows [first, first + count) selected, and a matching memory
// space.
std::pair<Handle, Handle> select_rows(hid_t dataset, const Shape& s, u64 first, u64 count,
                                      const std::string& path) {
  Handle file_space(check(H5Dget_space(dataset), path, "cannot read a dataset's shape"));
  hsize_t start[2] = {first, 0}, size[2] = {count, s.dims[1]};
  check(H5Sselect_hyperslab(file_space.get(), H5S_SELECT_SET, start, nullptr, size, nullptr), path,
        "cannot select rows");
  Handle mem_space(check(H5Screate_simple(s.rank, size, nullptr), path, "cannot make a dataspace"));
  return {std::move(file_space), std::move(mem_space)};
}

// Rows per chunk of a chunked dataset; nullopt for another layout.
std::optional<u64> chunk_rows(hid_t dataset, const std::string& path) {
  Handle plist(check(H5Dget_create_plist(dataset), path, "cannot read a dataset's layout"));
  if (H5Pget_layout(plist.get()) != H5D_CHUNKED) return std::nullopt;
  hsize_t dims[2] = {0, 1};
  const int rank = H5Pget_chunk(plist.get(), 2, dims);
  if (rank < 1 || dims[0] == 0) throw std::runtime_error(path + ": a column with no chunk size");
  if (rank == 1) dims[1] = 1;
  Handle type(check(H5Dget_type(dataset), path, "cannot read a column's type"));
  const long double bytes = (long double)dims[0] * dims[1] * H5Tget_size(type.get());
  if (bytes > kMaxChunkBytes)
    throw std::runtime_error(path + ": a column's chunks are larger than the " +
                             std::to_string(kMaxChunkBytes) + " bytes a records file may use");
  return u64(dims[0]);
}

void reclaim(hid_t mem_type, hid_t mem_space, void* data) {
  if (H5Tis_variable_str(mem_type) <= 0) return;
#if H5_VERSION_GE(1, 12, 0)
  H5Treclaim(mem_type, mem_space, H5P_DEFAULT, data);
#else
  H5Dvlen_reclaim(mem_type, mem_space, H5P_DEFAULT, data);
#endif
}

// Throws for rows [first, first + count) that could not be read (`why`): names the column and
// the first chunk's rows that fail on their own (a damaged chunk: "data error detected by
// Fletcher32 checksum"), so that a reader can say which rows of a file are lost.
[[noreturn]] void fail_read(hid_t dataset, hid_t mem_type, const Shape& s, u64 first, u64 count,
                            const std::string& path, const std::string& why) {
  char name[256] = "?";
  H5Iget_name(dataset, name, sizeof name);
  const u64 chunk = chunk_rows(dataset, path).value_or(count);
  std::string rows = std::to_string(first) + "-" + std::to_string(first + count - 1);
  std::string reason = why;
  const size_t value_bytes = H5Tget_size(mem_type) * s.dims[1];
  std::vector<unsigned char> scratch;
  for (u64 at = first - first % chunk; chunk < count && at < first + count; at += chunk) {
    const u64 from = std::max(at, first), n = std::min(at + chunk, first + count) - from;
    scratch.assign(n * value_bytes, 0);
    auto [file_space, mem_space] = select_rows(dataset, s, from, n, path);
    if (H5Dread(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, scratch.data()) >= 0) {
      reclaim(mem_type, mem_space.get(), scratch.data());
      continue;
    }
    rows = std::to_string(from) + "-" + std::to_string(from + n - 1);
    reason = last_error();
    break;
  }
  throw std::runtime_error(path + ": " + name + ": cannot read rows " + rows +
                           (reason.empty() ? "" : ": " + reason));
}

// A column's filters, in the order the writer sets them (create_column): each optional, no
// other. libhdf5 checks little of what a filter gives back — a chunk whose deflate was skipped
// (a filter mask) or that inflates short is read past its buffer (found by
// tests/fuzz/records_fuzzer) — and its other filters (szip, n-bit, scale-offset) are not the
// writer's, so a column with any other is not read at all.
struct Filters {
  bool deflate = false, fletcher32 = false;  // (shuffle keeps a chunk's size: nothing to check)
};

Filters filters_of(hid_t dataset, const std::string& path) {
  Handle plist(check(H5Dget_create_plist(dataset), path, "cannot read a dataset's layout"));
  const int n = H5Pget_nfilters(plist.get());
  if (n < 0) throw std::runtime_error(path + ": cannot read a column's filters: " + last_error());
  Filters f;
  int next = 0;  // the writer's order: shuffle, deflate, fletcher32
  for (int i = 0; i < n; ++i) {
    unsigned flags = 0, config = 0;
    size_t values = 0;
    const H5Z_filter_t id =
        H5Pget_filter2(plist.get(), unsigned(i), &flags, &values, nullptr, 0, nullptr, &config);
    const int at = id == H5Z_FILTER_SHUFFLE      ? 0
                   : id == H5Z_FILTER_DEFLATE    ? 1
                   : id == H5Z_FILTER_FLETCHER32 ? 2
                                                 : -1;
    if (at < next) {
      last_error();
      char name[256] = "?";
      H5Iget_name(dataset, name, sizeof name);
      throw std::runtime_error(path + ": " + name + ": a column with filter " + std::to_string(int(id)) +
                               " where the writer puts none (damaged, or not a gpusynth records file)");
    }
    next = at + 1;
    f.deflate = f.deflate || at == 1;
    f.fletcher32 = f.fletcher32 || at == 2;
  }
  return f;
}

// The bytes `packed` inflates to, counting at most `limit` of them; nullopt when it is not a
// whole zlib stream.
std::optional<u64> inflated_size(const unsigned char* packed, u64 bytes, u64 limit) {
  z_stream z{};
  if (inflateInit(&z) != Z_OK) return std::nullopt;
  std::vector<unsigned char> out(64 << 10);
  z.next_in = const_cast<unsigned char*>(packed);
  z.avail_in = uInt(bytes);
  u64 total = 0;
  int status = Z_OK;
  while (status == Z_OK && total <= limit) {
    z.next_out = out.data();
    z.avail_out = uInt(out.size());
    status = inflate(&z, Z_NO_FLUSH);
    total += out.size() - z.avail_out;
    if (status == Z_OK && z.avail_in == 0 && z.avail_out != 0) break;  // the input ran out mid-stream
  }
  inflateEnd(&z);
  if (status != Z_STREAM_END) return std::nullopt;
  return total;
}

// Throws unless the file holds every chunk of rows [first, first + count), whole: stored (HDF5
// reads a chunk its index does not find — a damaged chunk index — as fill values, without an
// error, and the writer writes every row it makes, so a missing chunk is damage), passed through
// every filter (no filter mask), at least as long as its checksum (libhdf5's Fletcher32 filter
// reads far outside a shorter one), and unfiltered to exactly a chunk's bytes (libhdf5 copies a
// chunk's bytes out of whatever its filters gave back). Found by tests/fuzz/records_fuzzer.
void require_chunks(hid_t dataset, u64 first, u64 count, const std::string& path) {
  const std::optional<u64> chunk = chunk_rows(dataset, path);
  if (!chunk) return;
  const Filters f = filters_of(dataset, path);
  const hsize_t least = f.fletcher32 ? 5 : 1;
  Handle type(check(H5Dget_type(dataset), path, "cannot read a column's type"));
  // A variable-length string is stored as a global heap reference: a length, an address, an index.
  const u64 element = H5Tis_variable_str(type.get()) > 0 ? 16 : H5Tget_size(type.get());
  const u64 whole = *chunk * shape_of(dataset, path).dims[1] * element;
  std::vector<unsigned char> raw;
  for (u64 at = first - first % *chunk; at < first + count; at += *chunk) {
    hsize_t offset[2] = {at, 0}, bytes = 0;
    unsigned mask = 0;
    haddr_t address = 0;
    std::string damage;
    if (H5Dget_chunk_info_by_coord(dataset, offset, &mask, &address, &bytes) < 0 || bytes == 0) {
      last_error();
      damage = "the file's chunk index does not hold them";
    } else if (bytes < least) {
      damage = "their stored chunk is " + std::to_string(bytes) + " bytes, shorter than its checksum";
    } else if (mask != 0) {
      damage = "their stored chunk skips a filter";
    } else if (bytes > kMaxChunkBytes) {
      damage = "their stored chunk is " + std::to_string(bytes) + " bytes";
    } else {
      std::optional<u64> unfiltered = bytes - (f.fletcher32 ? 4 : 0);
      if (f.deflate) {
        raw.resize(bytes);
        uint32_t filters = 0;
        if (H5Dread_chunk(dataset, H5P_DEFAULT, offset, &filters, raw.data()) < 0) {
          last_error();
          damage = "their stored chunk cannot be read";
        } else {
          unfiltered = inflated_size(raw.data(), *unfiltered, whole);
        }
      }
      if (damage.empty() && unfiltered != whole)
        damage = "their stored chunk does not unpack to a chunk's " + std::to_string(whole) + " bytes";
    }
    if (damage.empty()) continue;
    char name[256] = "?";
    H5Iget_name(dataset, name, sizeof name);
    throw std::runtime_error(
        path + ": " + name + ": cannot read rows " + std::to_string(std::max(at, first)) + "-" +
        std::to_string(std::min(at + *chunk, first + count) - 1) + ": " + damage + " (damaged)");
  }
}

}  // namespace

u64 rows(hid_t dataset, const std::string& path) {
  const Shape s = shape_of(dataset, path);
  // Rows past the allocated chunks were never written (the writer allocates every chunk it
  // fills): a damaged or crafted extent of 10^9 rows over a few chunks is not believed.
  const std::optional<u64> chunk = chunk_rows(dataset, path);
  if (!chunk) return s.dims[0];  // (every column the writer makes is chunked)
  Handle space(check(H5Dget_space(dataset), path, "cannot read a dataset's shape"));
  hsize_t chunks = 0;
  check(H5Dget_num_chunks(dataset, space.get(), &chunks), path, "cannot count a dataset's chunks");
  return std::min<u64>(s.dims[0], u64(chunks) * *chunk);
}
u64 width(hid_t dataset, const std::string& path) { return shape_of(dataset, path).dims[1]; }

void append(hid_t dataset, hid_t mem_type, const void* data, u64 count, const std::string& path) {
  if (count == 0) return;
  Shape s = shape_of(dataset, path);
  u64 first = s.dims[0];
  hsize_t grown[2] = {first + count, s.dims[1]};
  check(H5Dset_extent(dataset, grown), path, "cannot extend a dataset");
  auto [file_space, mem_space] = select_rows(dataset, s, first, count, path);
  check(H5Dwrite(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, data), path,
        "cannot write rows");
}

void read(hid_t dataset, hid_t mem_type, u64 first, u64 count, void* out, const std::string& path) {
  if (count == 0) return;
  Shape s = shape_of(dataset, path);
  if (first + count > s.dims[0]) throw std::runtime_error(path + ": rows beyond the end of a dataset");
  auto [file_space, mem_space] = select_rows(dataset, s, first, count, path);
  require_chunks(dataset, first, count, path);
  if (H5Dread(dataset, mem_type, mem_space.get(), file_space.get(), H5P_DEFAULT, out) < 0)
    fail_read(dataset, mem_type, s, first, count, path, last_error());
}

std::vector<std::string> read_strings(hid_t dataset, u64 first, u64 count, const std::string& path) {
  std::vector<std::string> out;
  if (count == 0) return out;
  Shape s = shape_of(dataset, path);
  if (first + count > s.dims[0]) throw std::runtime_error(path + ": rows beyond the end of a dataset");
  Handle type = string_type();
  std::vector<char*> texts(count, nullptr);
  auto [file_space, mem_space] = select_rows(dataset, s, first, count, path);
  require_chunks(dataset, first, count, path);
  if (H5Dread(dataset, type.get(), mem_space.get(), file_space.get(), H5P_DEFAULT, texts.data()) < 0)
    fail_read(dataset, type.get(), s, first, count, path, last_error());
  out.reserve(count);
  for (char* t : texts) out.emplace_back(t != nullptr ? t : "");
  reclaim(type.get(), mem_space.get(), texts.data());
  return out;
}

void resize(hid_t dataset, u64 count, const std::string& path) {
  Shape s = shape_of(dataset, path);
  hsize_t dims[2] = {count, s.dims[1]};
  check(H5Dset_extent(dataset, dims), path, "cannot resize a dataset");
}

}  // namespace gs::records::h5
