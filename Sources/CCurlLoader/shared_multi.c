// One libcurl multi handle for the whole process, so that transfers share
// its connection cache: a feed and its image on one host use one
// connection, a later check reuses it, and transfers in flight at once to
// an HTTP/2 server are streams of one connection. libcurl's connection
// cache cannot be shared between easy handles on several threads (its
// share interface says so), and a multi handle may be used by one thread
// at a time.
//
// So no extra thread: every caller waits in ccurl_shared_perform, and one
// of them at a time (the driver) runs the multi handle for all. Callers
// hand their easy handle over under `lock`; only the driver adds, performs,
// polls and removes. When the driver's own transfer ends it steps down and
// another waiter takes over. libcurl calls each transfer's callbacks on
// the driver's thread while the transfer's owner is blocked here; the lock
// orders their memory. A callback therefore must never block (it would
// hold up every transfer), nor wait for anything its owner's thread holds.
// With nothing in flight no thread is left behind, and nothing wakes.
//
// Idle connections stay open in the multi handle between transfers: a
// program the process starts must not inherit them (HookProcess closes
// every descriptor past its outputs, with glibc 2.34 or later).
#include "CCurlLoader.h"
#include "multi_api.h"
#include <pthread.h>

/// One caller's transfer, on the caller's stack until it is done.
struct waiter {
    CURL *easy;
    CURLcode result;
    int added;   // handed to the multi handle by the driver
    int done;
    struct waiter *next;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
static CURLM *multi;
static int driving;
static struct waiter *waiters;

// Marks `easy`'s waiter done with `result` (under lock).
static void finish(CURL *easy, CURLcode result) {
    for (struct waiter *w = waiters; w; w = w->next)
        if (w->easy == easy) {
            w->result = result;
            w->done = 1;
        }
}

// Hands the waiting transfers to the multi handle (driver, under lock).
// Whether one could not be added (and is done, failed).
static int add_new(void) {
    int refused = 0;
    for (struct waiter *w = waiters; w; w = w->next) {
        if (w->added || w->done) continue;
        w->added = 1;
        if (api_multi_add_handle(multi, w->easy) != CURLM_OK) {
            w->result = CURLE_FAILED_INIT;
            w->done = 1;
            refused = 1;
        }
    }
    return refused;
}

// One round of the multi handle: poll (when `wait`), perform, then take
// the ended transfers off it (driver, lock not held). Fills `ended` and
// returns their number; `broken` is set when the multi handle failed as a
// whole (a poll that cannot poll would otherwise spin).
static int run_once(CURL **ended, CURLcode *results, int room, int wait, int *broken) {
    int running = 0;
    CURLMcode code = wait ? api_multi_poll(multi, NULL, 0, 1000, NULL) : CURLM_OK;
    if (code == CURLM_OK) code = api_multi_perform(multi, &running);
    *broken = code != CURLM_OK;
    int count = 0;
    CURLMsg *message;
    int left = 0;
    while (count < room && (message = api_multi_info_read(multi, &left))) {
        if (message->msg != CURLMSG_DONE) continue;
        ended[count] = message->easy_handle;
        results[count] = message->data.result;
        api_multi_remove_handle(multi, message->easy_handle);
        count += 1;
    }
    return count;
}

// Ends every transfer still on the multi handle, after it failed as a
// whole (driver, under lock).
static void fail_all(void) {
    for (struct waiter *w = waiters; w; w = w->next)
        if (w->added && !w->done) {
            api_multi_remove_handle(multi, w->easy);
            w->result = CURLE_RECV_ERROR;   // libcurl's poll or perform failed
            w->done = 1;
        }
}

// Drives the multi handle until `me` is done (under lock, `driving` ours).
static void drive(struct waiter *me) {
    enum { room = 16 };
    CURL *ended[room];
    CURLcode results[room];
    int wait = 0;
    while (!me->done) {
        if (add_new()) pthread_cond_broadcast(&changed);
        pthread_mutex_unlock(&lock);
        int broken = 0;
        int count = run_once(ended, results, room, wait, &broken);
        pthread_mutex_lock(&lock);
        for (int i = 0; i < count; i++) finish(ended[i], results[i]);
        if (broken) fail_all();
        if (count != 0 || broken) pthread_cond_broadcast(&changed);
        // Poll next time unless a round ended something: more may be
        // ready. (A transfer handed over meanwhile wakes the poll.)
        wait = count == 0;
    }
}

CURLcode ccurl_shared_perform(CURL *easy) {
    struct waiter me = {easy, CURLE_OK, 0, 0, NULL};
    pthread_mutex_lock(&lock);
    if (!multi && !(multi = api_multi_init())) {
        pthread_mutex_unlock(&lock);
        return CURLE_FAILED_INIT;
    }
    me.next = waiters;
    waiters = &me;
    // A driver asleep in its poll looks again (wakeup is thread-safe).
    if (driving) api_multi_wakeup(multi);
    while (!me.done) {
        if (driving) {
            pthread_cond_wait(&changed, &lock);
            continue;
        }
        driving = 1;
        drive(&me);
        driving = 0;
        // Someone else's transfer may still run: a waiter takes over.
        pthread_cond_broadcast(&changed);
    }
    for (struct waiter **link = &waiters; *link; link = &(*link)->next)
        if (*link == &me) {
            *link = me.next;
            break;
        }
    pthread_mutex_unlock(&lock);
    return me.result;
}
