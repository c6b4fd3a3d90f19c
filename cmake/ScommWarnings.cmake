# Warnings are errors for scomm's own targets; third-party headers come in as system headers.
add_library(scomm_warnings INTERFACE)
target_compile_options(scomm_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wconversion -Wno-sign-conversion -Werror
  # GCC 12 reports std::string concatenation at -O3 as overlapping memcpy (GCC bug 105329).
  $<$<CXX_COMPILER_ID:GNU>:-Wno-restrict>)
if(SCOMM_SANITIZE)
  add_compile_options(-fsanitize=address,undefined -fno-omit-frame-pointer
                      -fno-sanitize-recover=undefined)
  add_link_options(-fsanitize=address,undefined)
endif()
