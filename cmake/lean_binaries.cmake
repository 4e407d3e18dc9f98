# Lean shipped binaries (cmd/*): linked statically against gRPC's unsecure
# flavour (a unix-socket CSI connection needs no TLS), protobuf, abseil, c-ares,
# re2, upb, zlib, yaml-cpp, OpenSSL (the API server's TLS), nghttp2 (its HTTP/2) and the C++
# runtime, unused sections dropped. In a container nothing shares library
# pages, so every shared library costs its whole touched text in RSS; only
# glibc stays shared: the one package of deploy/image/runtime-packages.txt.
#
# The libraries (csi, kube, ...) link `dep_grpc`, `dep_yaml_cpp`, `dep_openssl` and `dep_nghttp2`, which
# resolve per consuming executable: the static archives for an executable
# marked by lean_binary(), Debian's shared libraries for everything else (the
# tests, which are cheaper to link that way).
option(CSI_SIDECARS_LEAN_BINARIES
       "Link the shipped binaries statically (gRPC unsecure, protobuf, abseil, yaml-cpp, OpenSSL, nghttp2, libstdc++)" ON)

# Compiled into every object so that --gc-sections can drop what no binary calls.
if(CSI_SIDECARS_LEAN_BINARIES)
  add_compile_options(-ffunction-sections -fdata-sections)
endif()

# An INTERFACE target linking the static archives `names` (lib<name>.a) as one
# rescanned group, so their mutual references resolve in any order.
function(static_archive_group target)
  set(paths)
  foreach(name IN LISTS ARGN)
    find_library(archive_${name} NAMES lib${name}.a REQUIRED)
    list(APPEND paths ${archive_${name}})
  endforeach()
  list(JOIN paths "," joined)
  add_library(${target} INTERFACE)
  target_link_libraries(${target} INTERFACE "$<LINK_GROUP:RESCAN,${joined}>")
endfunction()

file(GLOB absl_archives /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/libabsl_*.a)
list(TRANSFORM absl_archives REPLACE ".*/lib(absl_[^/]*)\\.a$" "\\1")
static_archive_group(grpc_static grpc++_unsecure grpc_unsecure gpr upb address_sorting re2 cares
                     protobuf ${absl_archives} z)
target_link_libraries(grpc_static INTERFACE Threads::Threads)
static_archive_group(yaml_cpp_static yaml-cpp)
static_archive_group(openssl_static ssl crypto)
static_archive_group(nghttp2_static nghttp2)
target_link_libraries(openssl_static INTERFACE Threads::Threads ${CMAKE_DL_LIBS})

# $<TARGET_PROPERTY:LEAN_LINK> is read on the executable being linked.
set(lean "$<BOOL:$<TARGET_PROPERTY:LEAN_LINK>>")
add_library(dep_grpc INTERFACE)
target_link_libraries(dep_grpc INTERFACE
  "$<IF:${lean},grpc_static,gRPC::grpc++;protobuf::libprotobuf>")
add_library(dep_yaml_cpp INTERFACE)
target_link_libraries(dep_yaml_cpp INTERFACE "$<IF:${lean},yaml_cpp_static,yaml-cpp>")
add_library(dep_nghttp2 INTERFACE)
target_link_libraries(dep_nghttp2 INTERFACE "$<IF:${lean},nghttp2_static,PkgConfig::NGHTTP2>")
add_library(dep_openssl INTERFACE)
target_link_libraries(dep_openssl INTERFACE
  "$<IF:${lean},openssl_static,OpenSSL::SSL;OpenSSL::Crypto>")

# Marks a shipped executable: static archives (above), static libstdc++ and
# libgcc, section garbage collection, no NEEDED entry for an unused library,
# and packed relative relocations (DT_RELR, glibc >= 2.36 as in bookworm):
# a position-independent executable this size carries ~870 KB of them as
# .rela.dyn, which the dynamic loader reads once at start-up and which then
# stay resident as file pages for the life of the process; packed they take
# ~10 KB (docs/design.md §5.1).
# Not under sanitizers: their runtimes expect the shared C++ runtime.
#
# And no libm.so.6 (about 0.5 MiB resident for the seven functions the
# archives call): base/lean/libm_subset.cpp defines those libc lacks, and libc
# is named right after the executable's own objects, so that the functions
# both export (frexp, ldexp, modf) bind to libc before the compiler driver's
# -lm comes up, which --as-needed then drops (tests/CMakeLists.txt checks).
function(lean_binary target)
  if(CSI_SIDECARS_LEAN_BINARIES AND NOT CSI_ATTACHER_SANITIZE)
    set_property(TARGET ${target} PROPERTY LEAN_LINK ON)
    target_link_options(${target} PRIVATE -static-libstdc++ -static-libgcc -Wl,--gc-sections
                        -Wl,--as-needed -Wl,-z,pack-relative-relocs)
    target_sources(${target} PRIVATE ${PROJECT_SOURCE_DIR}/base/lean/libm_subset.cpp)
    target_link_libraries(${target} PRIVATE "-Wl,--push-state,--as-needed,-lc,--pop-state")
  endif()
endfunction()
