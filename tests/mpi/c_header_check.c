/* Compiles scomm.h as C: the header must stay valid C for C users. */
#include "scomm.h"

int scomm_c_header_check(void) {
  SCOMM_Group g = SCOMM_GROUP_NULL;
  int ranges[1][3] = {{0, 0, 1}};
  if (SCOMM_Group_world(1, &g) != SCOMM_SUCCESS) return 1;
  SCOMM_Group sub = SCOMM_GROUP_NULL;
  if (SCOMM_Group_range_incl(g, 1, ranges, &sub) != SCOMM_SUCCESS) return 1;
  SCOMM_Group_free(&sub);
  return SCOMM_Group_free(&g);
}
