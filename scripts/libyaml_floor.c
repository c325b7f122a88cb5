/* The floor for any libyaml reader: pull every event from a file and discard it.
   Built by scripts/bench.sh with the system C compiler: cc -O2 libyaml_floor.c -lyaml */
#include <stdio.h>
#include <yaml.h>

int main(int argc, char **argv) {
  if (argc != 2) { fprintf(stderr, "usage: libyaml_floor FILE\n"); return 64; }
  FILE *file = fopen(argv[1], "rb");
  if (!file) { perror(argv[1]); return 66; }
  yaml_parser_t parser;
  yaml_event_t event;
  unsigned long events = 0;
  yaml_parser_initialize(&parser);
  yaml_parser_set_input_file(&parser, file);
  for (;;) {
    if (!yaml_parser_parse(&parser, &event)) { fprintf(stderr, "parse error\n"); return 1; }
    int done = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    events++;
    if (done) break;
  }
  yaml_parser_delete(&parser);
  fclose(file);
  printf("%lu events\n", events);
  return 0;
}
