# Sourced by install.sh and uninstall.sh (not run): where the systemd user units of `--user-units` go, so that
# the two scripts always agree, with sudo and without.
#
# The units belong to the user the install is for: the one who ran sudo when this runs as root through sudo,
# else the current user. They go where that user's `systemd --user` looks: $XDG_CONFIG_HOME/systemd/user,
# with XDG_CONFIG_HOME defaulting to ~/.config and ignored unless absolute (systemd.unit(5), "User Unit Search
# Path"; the XDG Base Directory specification). Under sudo the environment is root's (sudo resets it, or keeps
# the caller's with -E): XDG_CONFIG_HOME counts only if it lies inside that user's home, so root's own
# configuration directory is never taken for theirs.

# Sets unit_user (the user name, empty for the current user) and user_unit_dir.
user_units_target() {
    unit_user=
    if [ "$(id -u)" = 0 ] && [ -n "${SUDO_USER:-}" ] && [ "$SUDO_USER" != root ]; then
        unit_user=$SUDO_USER
        unit_home=$(getent passwd "$SUDO_USER" | cut -d: -f6)
        if [ -z "$unit_home" ]; then
            echo "$(basename "$0"): cannot find the home of SUDO_USER '$SUDO_USER'" >&2
            exit 1
        fi
        case "${XDG_CONFIG_HOME:-}" in
            "$unit_home"/*) unit_config=$XDG_CONFIG_HOME ;;
            *) unit_config=$unit_home/.config ;;
        esac
    else
        case "${XDG_CONFIG_HOME:-}" in
            /*) unit_config=$XDG_CONFIG_HOME ;;
            *) unit_config=$HOME/.config ;;
        esac
    fi
    user_unit_dir=$unit_config/systemd/user
}
