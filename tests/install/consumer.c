/* Uses the installed C API: a stride group of a virtual world must be a constant-size map. */
#include <scomm.h>
#include <stdio.h>
#include <string.h>

int main(void) {
  SCOMM_Group world = SCOMM_GROUP_NULL, evens = SCOMM_GROUP_NULL;
  int range[1][3] = {{0, 999, 2}};
  char name[SCOMM_MAX_OBJECT_NAME];
  int length = 0;
  if (SCOMM_Group_world(1000, &world) != SCOMM_SUCCESS) return 1;
  if (SCOMM_Group_range_incl(world, 1, range, &evens) != SCOMM_SUCCESS) return 1;
  if (SCOMM_Group_representation(evens, name, &length) != SCOMM_SUCCESS) return 1;
  printf("consumer: evens of 1000 stored as %s\n", name);
  SCOMM_Group_free(&evens);
  SCOMM_Group_free(&world);
  return strcmp(name, "stride") != 0;
}
