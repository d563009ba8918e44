/* A bare MCP listing in C (issue 40 point 8's yardstick): starts the server given as argv,
 * sends initialize, notifications/initialized and tools/list over stdio, reads until the
 * tools/list answer, then closes the server's stdin and waits for it. Nothing else: what
 * `toolgate inspect` costs beyond this is toolgate's own.
 *
 *   cc -O2 -o bare_list benches/bare_list.c && ./bare_list mcp-server-memory
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <signal.h>
#include <unistd.h>
#include <sys/wait.h>

static const char *INIT =
    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
    "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"bare\",\"version\":\"0\"}}}\n";
static const char *READY = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\n";
static const char *LIST = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\",\"params\":{}}\n";

/* Reads lines until one carries "id":N (as the servers write it, with or without a space). */
static int wait_for(FILE *in, int id) {
    char *line = NULL;
    size_t cap = 0;
    char a[32], b[32];
    snprintf(a, sizeof a, "\"id\":%d", id);
    snprintf(b, sizeof b, "\"id\": %d", id);
    while (getline(&line, &cap, in) > 0) {
        if (strstr(line, a) || strstr(line, b)) {
            free(line);
            return 0;
        }
    }
    free(line);
    return -1;
}

int main(int argc, char **argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: bare_list SERVER [ARGS...]\n");
        return 2;
    }
    int to[2], from[2];
    if (pipe(to) || pipe(from)) return 2;
    pid_t pid = fork();
    if (pid < 0) return 2;
    if (pid == 0) {
        dup2(to[0], 0);
        dup2(from[1], 1);
        close(to[1]);
        close(from[0]);
        execvp(argv[1], argv + 1);
        _exit(127);
    }
    close(to[0]);
    close(from[1]);
    signal(SIGPIPE, SIG_IGN);
    FILE *out = fdopen(to[1], "w"), *in = fdopen(from[0], "r");
    fputs(INIT, out);
    fflush(out);
    if (wait_for(in, 1)) return 1;
    fputs(READY, out);
    fputs(LIST, out);
    fflush(out);
    if (wait_for(in, 2)) return 1;
    fclose(out);
    kill(pid, SIGTERM);
    int status;
    waitpid(pid, &status, 0);
    return 0;
}
