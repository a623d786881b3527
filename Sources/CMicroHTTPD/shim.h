#ifndef PLUMOMETER_CMICROHTTPD_SHIM_H
#define PLUMOMETER_CMICROHTTPD_SHIM_H

#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <microhttpd.h>

/*
 * MHD_start_daemon is variadic and its result macros are casts: Swift can call neither, so the few the bridge needs
 * are non-variadic functions and constants here. Nothing else: the bridge (PlumometerLinux/HTTP) does the rest.
 */

static const ssize_t plumometer_mhd_end_of_stream = MHD_CONTENT_READER_END_OF_STREAM;
static const ssize_t plumometer_mhd_end_with_error = MHD_CONTENT_READER_END_WITH_ERROR;
static const uint64_t plumometer_mhd_size_unknown = MHD_SIZE_UNKNOWN;

/* A message of libmicrohttpd's, formatted (the bridge filters and reports it). */
typedef void (*plumometer_mhd_log)(const char *message);

static void plumometer_mhd_logger(void *cls, const char *format, va_list arguments)
{
	char text[512];
	vsnprintf(text, sizeof text, format, arguments);
	((plumometer_mhd_log)cls)(text);
}

/*
 * A daemon on one address (4 bytes: IPv4, 16: IPv6; network order) and port (0: any free one), with external epoll
 * (the caller's thread runs it: MHD_run when its epoll descriptor is ready), suspend/resume (event streams waiting
 * for text; requests waiting for the caller's loop to answer them), a connection timeout (slow or stalled clients),
 * a limit of connections and of each connection's memory (oversized headers are answered by libmicrohttpd).
 */
static inline struct MHD_Daemon *plumometer_mhd_start(
	const unsigned char *address, size_t address_length, uint16_t port, MHD_AccessHandlerCallback handler,
	void *handler_context, MHD_RequestCompletedCallback completed, void *completed_context, plumometer_mhd_log log,
	unsigned int timeout_seconds, unsigned int connection_limit, size_t memory_limit)
{
	struct sockaddr_in v4;
	struct sockaddr_in6 v6;
	struct sockaddr *socket_address;
	unsigned int flags = MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ERROR_LOG;
	if (address_length == 16) {
		memset(&v6, 0, sizeof v6);
		v6.sin6_family = AF_INET6;
		v6.sin6_port = htons(port);
		memcpy(&v6.sin6_addr, address, 16);
		socket_address = (struct sockaddr *)&v6;
		flags |= MHD_USE_IPv6;
	} else if (address_length == 4) {
		memset(&v4, 0, sizeof v4);
		v4.sin_family = AF_INET;
		v4.sin_port = htons(port);
		memcpy(&v4.sin_addr, address, 4);
		socket_address = (struct sockaddr *)&v4;
	} else {
		return NULL;
	}
	return MHD_start_daemon(
		flags, port, NULL, NULL, handler, handler_context, MHD_OPTION_EXTERNAL_LOGGER, plumometer_mhd_logger,
		(void *)log, MHD_OPTION_SOCK_ADDR, socket_address, MHD_OPTION_NOTIFY_COMPLETED, completed,
		completed_context, MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds,
		MHD_OPTION_CONNECTION_LIMIT, connection_limit, MHD_OPTION_CONNECTION_MEMORY_LIMIT, memory_limit,
		MHD_OPTION_END);
}

/* The daemon's epoll descriptor, to poll on the thread that runs it (-1 without one). */
static inline int plumometer_mhd_epoll_fd(struct MHD_Daemon *daemon)
{
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_EPOLL_FD);
	return info == NULL ? -1 : info->epoll_fd;
}

/* The port the daemon listens on (the one chosen for port 0), 0 when unknown. */
static inline uint16_t plumometer_mhd_port(struct MHD_Daemon *daemon)
{
	const union MHD_DaemonInfo *info = MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
	return info == NULL ? 0 : info->port;
}

/* Milliseconds until libmicrohttpd needs MHD_run for a timeout, -1 for none. */
static inline long long plumometer_mhd_timeout_ms(struct MHD_Daemon *daemon)
{
	MHD_UNSIGNED_LONG_LONG timeout = 0;
	if (MHD_get_timeout(daemon, &timeout) != MHD_YES) return -1;
	return timeout > 86400000ULL ? 86400000LL : (long long)timeout;
}

/* Whether the peer of a connection is a loopback address: 127.0.0.0/8, ::1 or an IPv4-mapped 127.x.y.z. */
static inline int plumometer_mhd_peer_is_loopback(struct MHD_Connection *connection)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
	if (info == NULL || info->client_addr == NULL) return 0;
	if (info->client_addr->sa_family == AF_INET) {
		const struct sockaddr_in *v4 = (const struct sockaddr_in *)info->client_addr;
		return (ntohl(v4->sin_addr.s_addr) >> 24) == 127;
	}
	if (info->client_addr->sa_family == AF_INET6) {
		const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)info->client_addr;
		if (IN6_IS_ADDR_LOOPBACK(&v6->sin6_addr)) return 1;
		return IN6_IS_ADDR_V4MAPPED(&v6->sin6_addr) && v6->sin6_addr.s6_addr[12] == 127;
	}
	return 0;
}

/* Caps the kernel's send buffer of an event stream's socket, so what a client that stopped reading holds stays
 * small and the stream's own bounded queue decides when it is dropped. */
static inline void plumometer_mhd_limit_send_buffer(struct MHD_Connection *connection, int bytes)
{
	const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
	if (info != NULL) setsockopt(info->connect_fd, SOL_SOCKET, SO_SNDBUF, &bytes, sizeof bytes);
}

/* A response of `size` bytes copied from `data` (the mode's enum imports awkwardly). */
static inline struct MHD_Response *plumometer_mhd_copied_response(size_t size, void *data)
{
	return MHD_create_response_from_buffer(size, data, MHD_RESPMEM_MUST_COPY);
}

/* A header of the request, or NULL. */
static inline const char *plumometer_mhd_header(struct MHD_Connection *connection, const char *name)
{
	return MHD_lookup_connection_value(connection, MHD_HEADER_KIND, name);
}

#endif
