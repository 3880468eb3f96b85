/* A program for the tracer's tests (tests/cli/trace.rs): each mode touches files in one way
 * that a tracer must see (or must report it cannot see). Compiled by the tests with gcc. */
#define _GNU_SOURCE
#include <fcntl.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

static void slurp(int fd) {
    char buf[256];
    if (fd < 0) { perror("open"); exit(3); }
    while (read(fd, buf, sizeof buf) > 0) {}
    close(fd);
}

static void *reader(void *arg) {
    slurp(open((const char *)arg, O_RDONLY));
    return NULL;
}

static void *exec_from_thread(void *arg) {
    (void)arg;
    char *argv[] = {"cat", "exec-thread.txt", NULL};
    execve("/bin/cat", argv, environ);
    perror("execve");
    exit(4);
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "all";
    if (!strcmp(mode, "all")) {
        /* openat with a directory descriptor */
        int dir = open("dir", O_RDONLY | O_DIRECTORY);
        slurp(openat(dir, "in-dir.txt", O_RDONLY));
        close(dir);
        /* openat2 */
        struct open_how how = {.flags = O_RDONLY};
        slurp((int)syscall(SYS_openat2, AT_FDCWD, "openat2.txt", &how, sizeof how));
        /* a thread */
        pthread_t t;
        pthread_create(&t, NULL, reader, "thread.txt");
        pthread_join(t, NULL);
        /* fork, then exec a chain: sh runs cat */
        pid_t child = fork();
        if (child == 0) {
            execl("/bin/sh", "sh", "-c", "cat forked.txt > /dev/null", (char *)NULL);
            _exit(5);
        }
        waitpid(child, NULL, 0);
        /* posix_spawn (vfork underneath) */
        char *cat[] = {"cat", "spawned.txt", NULL};
        pid_t spawned;
        posix_spawn(&spawned, "/bin/cat", NULL, NULL, cat, environ);
        waitpid(spawned, NULL, 0);
        /* a relative path after chdir */
        if (chdir("sub") != 0) { perror("chdir"); return 6; }
        slurp(open("after-chdir.txt", O_RDONLY));
        if (chdir("..") != 0) { perror("chdir"); return 6; }
        /* only looked at */
        struct stat st;
        stat("probed.txt", &st);
        access("probed.txt", R_OK);
        /* a temporary file renamed into place: an output, not an input */
        int tmp = open("result.tmp", O_WRONLY | O_CREAT | O_TRUNC, 0644);
        if (write(tmp, "42\n", 3) != 3) return 7;
        close(tmp);
        rename("result.tmp", "result.txt");
        /* created by an open for reading with O_CREAT: written and created */
        close(open("made.txt", O_RDONLY | O_CREAT, 0644));
        /* read, then rewritten: state, not an input */
        slurp(open("state.txt", O_RDONLY));
        int state = open("state.txt", O_WRONLY | O_TRUNC);
        close(state);
        return 0;
    }
    if (!strcmp(mode, "exec-thread")) {
        pthread_t t;
        pthread_create(&t, NULL, exec_from_thread, NULL);
        pthread_join(t, NULL);
        return 8;
    }
    if (!strcmp(mode, "read")) {
        slurp(open(argv[2], O_RDONLY));
        return 0;
    }
    if (!strcmp(mode, "io-uring")) {
        unsigned char params[120] = {0};
        long fd = syscall(SYS_io_uring_setup, 4, params);
        printf("io_uring_setup: %ld\n", fd);
        slurp(open("after-uring.txt", O_RDONLY));
        return 0;
    }
#if defined(__x86_64__)
    if (!strcmp(mode, "int80")) {
        /* open(2) through the 32-bit entry point: the path must be below 4 GiB (-no-pie) */
        static const char path[] = "legacy.txt";
        long ret;
        __asm__ volatile("int $0x80" : "=a"(ret) : "a"(5), "b"(path), "c"(0) : "memory");
        printf("32-bit open: %ld\n", ret);
        return 0;
    }
#endif
    fprintf(stderr, "unknown mode %s\n", mode);
    return 2;
}
