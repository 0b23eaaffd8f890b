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
// orders their memory. With nothing in flight no thread is left behind,
// and nothing wakes.
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
static void add_new(void) {
    for (struct waiter *w = waiters; w; w = w->next) {
        if (w->added || w->done) continue;
        w->added = 1;
        if (api_multi_add_handle(multi, w->easy) != CURLM_OK) {
            w->result = CURLE_FAILED_INIT;
            w->done = 1;
        }
    }
}

// One round of the multi handle: perform, then take the ended transfers
// off it (driver, lock not held). Fills `ended` and returns their number.
static int run_once(CURL **ended, CURLcode *results, int room, int wait) {
    int running = 0;
    if (wait) api_multi_poll(multi, NULL, 0, 1000, NULL);
    CURLMcode code = api_multi_perform(multi, &running);
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
    // A multi handle that fails as a whole ends every transfer on it.
    return code == CURLM_OK ? count : -1;
}

// Drives the multi handle until `me` is done (under lock, `driving` ours).
static void drive(struct waiter *me) {
    enum { room = 16 };
    CURL *ended[room];
    CURLcode results[room];
    int wait = 0;
    while (!me->done) {
        add_new();
        pthread_mutex_unlock(&lock);
        int count = run_once(ended, results, room, wait);
        pthread_mutex_lock(&lock);
        if (count < 0) {
            for (struct waiter *w = waiters; w; w = w->next)
                if (w->added && !w->done) {
                    api_multi_remove_handle(multi, w->easy);
                    w->result = CURLE_FAILED_INIT;
                    w->done = 1;
                }
        }
        for (int i = 0; i < count; i++) finish(ended[i], results[i]);
        if (count != 0) pthread_cond_broadcast(&changed);
        // Poll next time, unless a round ended something (more may be
        // ready) or a transfer arrived meanwhile.
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
